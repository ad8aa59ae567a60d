#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Renders every tab of the explorer for the default model and the two largest shared HLO samples, in
# English and German, as a new user first sees each view (docs/screenshots.md). Needs a built explorer
# (build/dev by default), xvfb-run and the shared samples beside the checkout; the window is
# 1,280 x 800, the pictures indexed PNGs (--indexed: less than half the bytes, no visible change).
#   scripts/screenshots.sh [OUTPUT_DIR] [EXPLORER]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/docs/screenshots}"
explorer="${2:-$root/build/dev/app/flint-explorer}"
samples="$root/../shared/data/hlo"
mkdir -p "$out"
declare -A inputs=(
  [gpt3]=""
  [llama31-8b]="$samples/hlo_llama31_8b_bf16_1x8.hlo"
  [llama31-70b]="$samples/hlo_llama31_70b_bf16_16x8.hlo"
)
tabs=(graph timeline communication charts ops validation sweep)
for name in gpt3 llama31-8b llama31-70b; do
  input="${inputs[$name]}"
  if [[ -n "$input" && ! -f "$input" ]]; then
    echo "screenshots: $input not found, skipped" >&2
    continue
  fi
  for lang in en de; do
    for tab in "${tabs[@]}"; do
      png="$out/$name-$tab-$lang.png"
      args=(--screenshot "$png" --indexed --tab "$tab" --lang "$lang")
      [[ -n "$input" ]] && args+=("$input")
      xvfb-run -a -s "-screen 0 1280x800x24" "$explorer" "${args[@]}" > /dev/null
    done
  done
done
echo "screenshots: wrote $(ls "$out"/*.png | wc -l) pictures to $out"
