#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Quick start: install the Debian packages, build a release, and open the explorer on the built-in
# default model (GPT-3 175B on 1,024 H100s: TP 8 x PP 8 x DP 16, global batch 1,536). Without a
# display it says how to run headless and renders the explorer once to an image instead.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
cmake --preset release
cmake --build --preset release

explorer=build/release/app/flint-explorer
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec "$explorer" "$@"
fi
cat <<'MSG'

No display found, so the explorer cannot open a window here. To use it headless:
  xvfb-run -a build/release/app/flint-explorer [FILE]          (a virtual display; apt-get install xvfb)
  build/release/app/flint-explorer --screenshot out.png [FILE] (render once to an image and exit)
  build/release/app/flint model estimate gpt3-175b --tp 8 --pp 8 --dp 16 --global-batch 1536
  build/release/app/flint inspect|import|estimate FILE          (the command line)

Rendering the explorer on the default model to build/release/flint-explorer.png:
MSG
"$explorer" --screenshot build/release/flint-explorer.png "$@"
echo
echo "\$ build/release/app/flint model estimate gpt3-175b --tp 8 --pp 8 --dp 16 --global-batch 1536"
build/release/app/flint model estimate gpt3-175b --tp 8 --pp 8 --dp 16 --global-batch 1536 | head -n 8
