#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs a libFuzzer harness of fuzz/ for SECONDS under ASan + UBSan (docs/testing.md).
#   scripts/fuzz.sh NAME SECONDS     one harness: chakra, commgroups, hlo, mlir, model, network, profile, system
#   scripts/fuzz.sh all SECONDS      each harness in turn, SECONDS each
# Builds the fuzz preset first (clang-19, core only). Seeds come from the repository's test and
# example inputs, fuzz/seeds/, and ../shared/data (samples and reproducers) when it is there; the
# working corpus grows in build/fuzz/corpus/NAME across runs. A crash, sanitizer report, leak, run
# over 10 s or over 2 GB on one input is a finding: its input is kept in build/fuzz/findings/NAME/
# and the script exits 1. Reproduce one with: build/fuzz/fuzz/fuzz_NAME FILE
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
harnesses=(chakra commgroups hlo mlir model network profile system)

usage() {
  echo "usage: scripts/fuzz.sh NAME|all SECONDS   (NAME: ${harnesses[*]})" >&2
  exit 2
}
[ $# -eq 2 ] || usage
name="$1"
seconds="$2"
[[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ] || usage
if [ "$name" = all ]; then
  selected=("${harnesses[@]}")
else
  found=0
  for h in "${harnesses[@]}"; do [ "$h" = "$name" ] && found=1; done
  [ $found -eq 1 ] || usage
  selected=("$name")
fi

if ! command -v clang++-19 >/dev/null 2>&1; then
  echo "fuzz: clang++-19 is missing (scripts/install-deps.sh installs clang-19 and libclang-rt-19-dev)" >&2
  exit 2
fi
[ -f build/fuzz/CMakeCache.txt ] || cmake --preset fuzz >/dev/null
cmake --build --preset fuzz

shared="$root/../shared/data"
# Seed files per harness: find(1) expressions over the seed folders.
seeds() {
  local folders=(tests resources fuzz/seeds)
  [ -d "$shared" ] && folders+=("$shared")
  case "$1" in
    chakra) find "${folders[@]}" -type f \( -name '*.et' -o -name '*.et.gz' \) ;;
    commgroups) find "${folders[@]}" -type f -name '*.json' \( -path '*chakra*' -o -path '*repro*' -o -name 't.json' \) \
                  ! -name '*system*' ! -name 'HGX*' ! -name 'Ring_4chunks*' ! -name 'no_memory*' ;;
    hlo) find "${folders[@]}" -type f \( -name '*.hlo' -o -name '*.hlo.txt' -o -name '*_gpus.txt' -o -name '*optimizations.txt' \) ;;
    mlir) find "${folders[@]}" -type f -name '*.mlir' ;;
    model) find "${folders[@]}" -type f -path '*model*' -name '*.txt' ! -name 'CMakeLists.txt' ;;
    network) find "${folders[@]}" -type f \( -name '*.yml' -o -name '*.yaml' \) ;;
    profile) find "${folders[@]}" -type f \( -path '*measured*' -o -path '*seeds/profile*' \) \( -name '*.json' -o -name '*.json.gz' \) ;;
    system) find "${folders[@]}" -type f -name '*.json' \( -path '*astrasim_configs*' -o -name '*system*' \) ;;
  esac
}

status=0
for h in "${selected[@]}"; do
  corpus="build/fuzz/corpus/$h"
  findings="build/fuzz/findings/$h"
  mkdir -p "$corpus" "$findings"
  # Seeds larger than 256 KiB would be cut at -max_len anyway; copied under their content hash.
  # Compressed profiles are seeded inflated, so that mutations reach the JSON reader.
  while IFS= read -r seed; do
    if [ "$h" = profile ] && [[ "$seed" == *.gz ]]; then
      [ "$(gzip -dc "$seed" | wc -c)" -le 262144 ] || continue
      gzip -dc "$seed" > "$corpus/seed-$(sha1sum "$seed" | cut -c1-16)"
      continue
    fi
    [ "$(stat -c %s "$seed")" -le 262144 ] || continue
    cp "$seed" "$corpus/seed-$(sha1sum "$seed" | cut -c1-16)"
  done < <(seeds "$h")
  echo "fuzz: $h for ${seconds} s ($(ls "$corpus" | wc -l) inputs in $corpus)"
  log="build/fuzz/findings/$h.log"
  if ! ASAN_OPTIONS="detect_leaks=1:abort_on_error=0" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
      LSAN_OPTIONS="suppressions=$root/tests/lsan.supp:print_suppressions=0" \
      "build/fuzz/fuzz/fuzz_$h" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -malloc_limit_mb=2048 -max_len=262144 -artifact_prefix="$findings/" -print_final_stats=1 >"$log" 2>&1; then
    echo "fuzz: $h FOUND A DEFECT; input and log in $findings/ and $log:" >&2
    grep -E "ERROR|SUMMARY|runtime error|Test unit written" "$log" | head -20 >&2
    status=1
  fi
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "$log" | sed "s/^/fuzz: $h /"
done
exit $status
