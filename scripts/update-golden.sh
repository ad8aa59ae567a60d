#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Regenerates the golden files of tests/golden from the dev build (tst_golden with
# FLINT_UPDATE_GOLDEN=1) and shows what changed. Review the diff before committing it: every changed
# line is a change in what users get from flint (docs/testing.md).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --build --preset dev --target tst_golden flint
FLINT_UPDATE_GOLDEN=1 QT_QPA_PLATFORM=offscreen build/dev/tests/tst_golden
git status --short tests/golden
git diff --stat tests/golden
