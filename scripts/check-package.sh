#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the Debian package and checks it (packaging/README.md).
#
#   scripts/check-package.sh --quick   build the .deb (dev preset), check its contents, lintian (no
#                                      errors), desktop-file-validate and appstreamcli; scripts/test.sh
#                                      runs this
#   scripts/check-package.sh           the same from the release preset, then install the .deb into
#                                      a clean Debian 12 root made by debootstrap (cached), run flint
#                                      and the explorer there, upgrade it, purge it, and check that
#                                      nothing is left behind and user settings survive. Root only.
#
# The clean root uses the host's apt sources and settings, so it needs nothing but the Debian package
# registry the host already reaches. Output and the screenshot taken in the root: build/package-check/.
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0
[ "${1:-}" = "--quick" ] && quick=1
preset=$([ $quick = 1 ] && echo dev || echo release)
out=build/package-check
mkdir -p "$out"
started=$(date +%s)
fail() {
  echo "check-package: FAIL: $*" >&2
  exit 1
}
step() { echo "check-package: $*"; }

# 1. Build. Configuring again refreshes the version from the git state.
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
rm -f build/"$preset"/flint-explorer_*.deb
cmake --build --preset "$preset" --target package >"$out/cpack.log" 2>&1 || {
  cat "$out/cpack.log" >&2
  fail "the package did not build"
}
deb=$(ls build/"$preset"/flint-explorer_*_amd64.deb)
step "built $deb"
echo "  package size:   $(stat -c %s "$deb") bytes"
echo "  installed size: $(dpkg-deb -f "$deb" Installed-Size) KiB"
echo "  version:        $(dpkg-deb -f "$deb" Version)"
echo "  depends:        $(dpkg-deb -f "$deb" Depends)"
echo "  recommends:     $(dpkg-deb -f "$deb" Recommends)"

# 2. Contents: every file the documentation promises, where it says.
dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' >"$out/contents.txt"
for path in /usr/bin/flint /usr/bin/flint-explorer \
  /usr/share/applications/flint-explorer.desktop \
  /usr/share/metainfo/io.github.flint_explorer.metainfo.xml \
  /usr/share/doc/flint-explorer/copyright /usr/share/doc/flint-explorer/changelog.gz \
  /usr/share/doc/flint-explorer/README.md /usr/share/doc/flint-explorer/cli.md \
  /usr/share/doc/flint-explorer/models.md \
  /usr/share/man/man1/flint.1.gz /usr/share/man/man1/flint-explorer.1.gz \
  /usr/share/flint-explorer/examples/PROVENANCE.md \
  /usr/share/flint-explorer/examples/hlo/llama2_tp4_pp2_torch_xla.hlo \
  /usr/share/flint-explorer/examples/astrasim_all_reduce_8npus_1MB/all_reduce.0.et; do
  grep -qx "$path" "$out/contents.txt" || fail "the package lacks $path"
done
step "contents: $(grep -cv '/$' "$out/contents.txt") files, all documented paths present"

# 3. The distribution's own checks.
lintian --tag-display-limit 0 --fail-on error "$deb" >"$out/lintian.txt" 2>&1 || {
  cat "$out/lintian.txt" >&2
  fail "lintian reports errors"
}
grep -v 'running with root privileges' "$out/lintian.txt" || true
step "lintian: $(grep -c '^E:' "$out/lintian.txt" || true) errors, $(grep -c '^W:' "$out/lintian.txt" || true) warnings"
desktop-file-validate packaging/flint-explorer.desktop || fail "desktop-file-validate"
appstreamcli validate --no-net packaging/io.github.flint_explorer.metainfo.xml || fail "appstreamcli validate"
step "desktop entry and AppStream metadata valid"

if [ $quick = 1 ]; then
  step "quick checks passed in $(($(date +%s) - started)) s"
  exit 0
fi

# 4. A clean Debian 12 root, cached as a tarball of a fresh debootstrap.
[ "$(id -u)" -eq 0 ] || fail "the clean-root install needs root (debootstrap, chroot)"
command -v debootstrap >/dev/null || {
  DEBIAN_FRONTEND=noninteractive apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends debootstrap
}
# The mirror the host's apt uses (deb822 .sources or one-line sources.list).
mirror=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v security | head -n1)
[ -n "$mirror" ] || mirror=$(grep -hs '^deb ' /etc/apt/sources.list | awk '{print $2}' | grep -v security | head -n1)
[ -n "$mirror" ] || fail "no Debian mirror in the host's apt sources"
cache=${FLINT_PACKAGE_ROOT_CACHE:-build/package-root-cache}
mkdir -p "$cache"
if [ ! -s "$cache/bookworm-minbase.tar" ]; then
  step "debootstrap bookworm (minbase) from the host's mirror; cached in $cache"
  tmp=$(mktemp -d)
  debootstrap --variant=minbase bookworm "$tmp/root" "$mirror" >"$out/debootstrap.log" 2>&1 ||
    { tail -20 "$out/debootstrap.log" >&2; rm -rf "$tmp"; fail "debootstrap"; }
  tar -C "$tmp/root" -cf "$cache/bookworm-minbase.tar.partial" . && mv "$cache/bookworm-minbase.tar.partial" "$cache/bookworm-minbase.tar"
  rm -rf "$tmp"
fi
root=$(mktemp -d /tmp/flint-package-root.XXXXXX)
cleanup() {
  for m in dev/pts dev proc; do umount "$root/$m" 2>/dev/null || true; done
  rm -rf --one-file-system "$root"
}
trap cleanup EXIT
tar -C "$root" -xf "$cache/bookworm-minbase.tar"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
rm -rf "$root/etc/apt/sources.list.d" "$root/etc/apt/sources.list"
cp -a /etc/apt/sources.list.d "$root/etc/apt/" 2>/dev/null || true
[ -f /etc/apt/sources.list ] && cp /etc/apt/sources.list "$root/etc/apt/"
cp -a /etc/apt/apt.conf.d/. "$root/etc/apt/apt.conf.d/" 2>/dev/null || true
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
in_root() { chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }

# 5. Install with apt, so that the dependencies resolve from Debian alone.
cp "$deb" "$root/tmp/"
name=$(basename "$deb")
step "apt-get install ./$name in the clean root"
in_root apt-get update >"$out/apt-update.log" 2>&1 || { tail "$out/apt-update.log" >&2; fail "apt-get update"; }
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "/tmp/$name" >"$out/apt-install.log" 2>&1 ||
  { tail -30 "$out/apt-install.log" >&2; fail "apt-get install"; }
grep -E '^(Need to get|After this operation)' "$out/apt-install.log" || true

# 6. Run what a user runs first.
in_root flint --help >"$out/help.txt" 2>&1 || fail "flint --help"
grep -q '^Commands:' "$out/help.txt" || fail "flint --help printed no command list"
examples=/usr/share/flint-explorer/examples
in_root flint inspect "$examples/astrasim_all_reduce_8npus_1MB" >"$out/inspect.txt" 2>&1 || fail "flint inspect"
grep -q '^ranks: *8' "$out/inspect.txt" || fail "flint inspect: expected 8 ranks"
in_root flint estimate "$examples/hlo/llama2_tp4_pp2_torch_xla.hlo" >"$out/estimate.txt" 2>&1 ||
  { cat "$out/estimate.txt" >&2; fail "flint estimate"; }
grep -q '^step time:' "$out/estimate.txt" || fail "flint estimate printed no step time"
in_root flint model estimate gpt3-175b --tp 8 --pp 8 --ranks 1024 --global-batch 1536 >"$out/model.txt" 2>&1 ||
  { cat "$out/model.txt" >&2; fail "flint model estimate"; }
grep -q '^step time:' "$out/model.txt" || fail "flint model estimate printed no step time"
in_root env QT_QPA_PLATFORM=offscreen flint-explorer --lang de --help >"$out/explorer-help-de.txt" 2>&1 ||
  fail "flint-explorer --help"
grep -q 'Optionen\|Options' "$out/explorer-help-de.txt" || fail "flint-explorer --help"
in_root env QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=/tmp flint-explorer --screenshot /tmp/screenshot.png \
  >"$out/screenshot.log" 2>&1 || { cat "$out/screenshot.log" >&2; fail "flint-explorer --screenshot"; }
cp "$root/tmp/screenshot.png" "$out/screenshot.png"
[ "$(head -c 8 "$out/screenshot.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "the screenshot is no PNG"
[ "$(stat -c %s "$out/screenshot.png")" -gt 20000 ] || fail "the screenshot is nearly empty"
step "flint --help, inspect, estimate, model estimate and flint-explorer --screenshot ran ($out/screenshot.png)"

# 7. Upgrade to a later version, then purge: settings stay, package files go.
settings="$root/root/.config/Flint Explorer/Flint Explorer.conf"
mkdir -p "$(dirname "$settings")"
printf '[check]\nmarker=kept\n' >"$settings"
work=$(mktemp -d)
dpkg-deb -R "$deb" "$work/pkg"
version=$(dpkg-deb -f "$deb" Version)
sed -i "s/^Version: .*/Version: ${version}.1/" "$work/pkg/DEBIAN/control"
dpkg-deb -b "$work/pkg" "$root/tmp/upgrade.deb" >/dev/null
rm -rf "$work"
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y /tmp/upgrade.deb >"$out/apt-upgrade.log" 2>&1 ||
  { tail "$out/apt-upgrade.log" >&2; fail "upgrade"; }
[ "$(in_root dpkg-query -W -f='${Version}' flint-explorer)" = "${version}.1" ] || fail "upgrade: version"
in_root flint --help >/dev/null || fail "flint after the upgrade"
grep -q 'marker=kept' "$settings" || fail "the upgrade lost user settings"
in_root env DEBIAN_FRONTEND=noninteractive apt-get purge -y flint-explorer >"$out/apt-purge.log" 2>&1 ||
  fail "apt-get purge"
left=0
while read -r path; do
  case "$path" in */) continue ;; esac
  if [ -e "$root$path" ]; then
    echo "  left behind: $path" >&2
    left=1
  fi
done <"$out/contents.txt"
for dir in /usr/share/flint-explorer /usr/share/doc/flint-explorer; do
  [ ! -e "$root$dir" ] || { echo "  left behind: $dir" >&2; left=1; }
done
[ $left = 0 ] || fail "purge left files behind"
grep -q 'marker=kept' "$settings" || fail "purge removed user settings"
step "upgrade to ${version}.1 and purge: no file left, user settings kept"
step "all checks passed in $(($(date +%s) - started)) s"
