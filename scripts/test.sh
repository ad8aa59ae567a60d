#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian packages, builds every target (dev preset: optimised with debug info), builds
# and checks the Debian package, and runs all tests through CTest. GUI tests run on Qt's offscreen
# platform, so no display is needed. Tests that use the shared real-world samples (../shared/data)
# skip with a message without them. Then clang-tidy checks the sources the last commits changed.
# Last, every libFuzzer harness runs FLINT_FUZZ_SECONDS (default 20) under ASan + UBSan; a finding
# fails the run (docs/testing.md).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
cmake --preset dev
cmake --build --preset dev
# The Debian package builds and passes lintian, desktop-file-validate and appstreamcli
# (scripts/check-package.sh without --quick also installs it into a clean Debian 12 root).
bash scripts/check-package.sh --quick
QT_QPA_PLATFORM=offscreen ctest --preset dev
# clang-tidy (.clang-tidy) on the sources the last commits changed; a finding fails the run.
bash scripts/tidy.sh
bash scripts/fuzz.sh all "${FLINT_FUZZ_SECONDS:-20}"
