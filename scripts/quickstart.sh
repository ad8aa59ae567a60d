#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Quick start: install the Debian packages, build a release, and run the main job on the bundled
# example (ASTRA-sim's 8-rank all-reduce trace). Until the explorer lands, the main job is
# `flint inspect`; it needs no display.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
cmake --preset release
cmake --build --preset release
echo
echo "\$ build/release/app/flint inspect resources/examples/astrasim_all_reduce_8npus_1MB/all_reduce"
build/release/app/flint inspect resources/examples/astrasim_all_reduce_8npus_1MB/all_reduce
