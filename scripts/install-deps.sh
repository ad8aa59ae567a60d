#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages Flint Explorer builds and tests with. Idempotent: when every
# package is already installed it changes nothing and needs no network. Run as root (or with sudo).
set -euo pipefail

packages=(
  # toolchain
  cmake ninja-build g++ pkg-config file dpkg-dev
  # core
  libprotobuf-dev protobuf-compiler zlib1g-dev nlohmann-json3-dev
  # MLIR frontend: Debian's MLIR 19 and LLVM 19 shared libraries
  libmlir-19-dev mlir-19-tools llvm-19-dev
  # Qt 6 (QTest, and the explorer's widgets, charts and translations)
  qt6-base-dev qt6-charts-dev qt6-svg-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
  # Qt's own strings in German and Chinese: key names in menus ("Strg+Z"), standard dialogs
  qt6-translations-l10n
  libqt6opengl6-dev libxkbcommon-dev libgl-dev
  # DAG layout
  libgraphviz-dev
  # `flint replay` and distributed sweeps (optional at build time: without it they are left out)
  libopenmpi-dev openmpi-bin
  # screenshots of real windows on headless machines; a CJK font, without which the Chinese
  # translation renders as empty boxes (the Debian package recommends fonts-noto-cjk instead)
  xvfb xauth fonts-wqy-microhei
  # the Debian package's checks (scripts/check-package.sh)
  lintian desktop-file-utils appstream
  # libFuzzer harnesses under ASan + UBSan (scripts/fuzz.sh); clang-tidy on changed files (scripts/tidy.sh)
  clang-19 libclang-rt-19-dev clang-tidy-19
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages are installed"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
  else
    echo "install-deps: run as root to install: ${missing[*]}" >&2
    exit 1
  fi
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update
$sudo apt-get install -y --no-install-recommends "${missing[@]}"
