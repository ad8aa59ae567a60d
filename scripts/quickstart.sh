#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Quick start: install the Debian packages, build a release, and open the explorer on the bundled
# default model (a Llama-3.1 70B training step on 128 devices, XLA HLO). Without a display it says
# how to run headless and renders the explorer once to an image instead.
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
  build/release/app/flint inspect|import|estimate FILE          (the command line)

Rendering the explorer on the default model to build/release/flint-explorer.png:
MSG
"$explorer" --screenshot build/release/flint-explorer.png "$@"
echo
echo "\$ build/release/app/flint estimate resources/examples/hlo/llama31_70b_train_step_128_devices.hlo"
build/release/app/flint estimate resources/examples/hlo/llama31_70b_train_step_128_devices.hlo | head -n 8
