#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs clang-tidy (.clang-tidy at the root; every finding is an error) on the C++ sources changed
# since BASE: the first argument, else FLINT_TIDY_BASE, else HEAD~5 (the last few commits, what a
# landing usually brings). `scripts/tidy.sh --all` checks every source (about 15 minutes on two
# cores). Needs the dev build's compile_commands.json. docs/testing.md.
set -euo pipefail
cd "$(dirname "$0")/.."

tidy=clang-tidy-19
command -v "$tidy" >/dev/null || { echo "tidy: $tidy is missing (scripts/install-deps.sh installs it)" >&2; exit 2; }
[ -f build/dev/compile_commands.json ] || { echo "tidy: configure the dev preset first (cmake --preset dev)" >&2; exit 2; }

if [ "${1:-}" = "--all" ]; then
  mapfile -t files < <(git ls-files '*.cpp' | grep -E '^(core|engine|views|app|tests)/')
else
  base="${1:-${FLINT_TIDY_BASE:-HEAD~5}}"
  if ! git rev-parse --verify --quiet "$base^{commit}" >/dev/null; then
    base="$(git rev-list --max-parents=0 HEAD | tail -1)" # a short history: from the first commit
  fi
  mapfile -t files < <(git diff --name-only --diff-filter=d "$base" -- '*.cpp' | grep -E '^(core|engine|views|app|tests)/' || true)
fi
# Only sources the build compiles (a file of a disabled option has no compile command).
compiled=()
for f in "${files[@]}"; do
  if grep -q "\"file\": \"$PWD/$f\"" build/dev/compile_commands.json; then
    compiled+=("$f")
  fi
done
if [ ${#compiled[@]} -eq 0 ]; then
  echo "tidy: no changed C++ sources to check"
  exit 0
fi
echo "tidy: checking ${#compiled[@]} file(s) with $tidy"
printf '%s\n' "${compiled[@]}" | xargs -P "$(nproc)" -n 1 "$tidy" -p build/dev --quiet
echo "tidy: clean"
