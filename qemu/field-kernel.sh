#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# field-kernel.sh DIR
#
# The field guest's kernel: Debian 13's (trixie's) own signed
# linux-image-6.12.*-amd64, the one trixie's linux-image-amd64 depends on
# today, unpatched: the stable release where most admins first run mwictl. Its package is
# fetched with apt-get download (nothing is installed on the host) into
# DIR; DIR/vmlinuz is its kernel, and DIR/modroot holds its own modules for
# the pc machine's devices (8139cp, 8139too, e1000, sym53c8xx) and what they
# depend on, indexed by depmod, for the initramfs. DIR/package names the
# package file and this script's hash: a new upload, or a change here,
# unpacks again. trixie is one of apt's sources (qemu/install-deps.sh adds
# it at priority 1); without the package in apt's lists, root runs
# apt-get update once; anyone else is told to.
set -eu
set -o pipefail
here=$(dirname "$0")
. "$here/lib.sh"

dir=$1
# The drivers of the pc machine's functions, as udev would load them there.
MODULES="8139cp 8139too e1000 sym53c8xx"
DEPMOD=$(command -v depmod || echo /sbin/depmod)
MODPROBE=$(command -v modprobe || echo /sbin/modprobe)

SUITE=trixie

# The package behind SUITE's linux-image-amd64 and its version there.
candidate() {
	local meta pkg version
	meta=$(apt-cache madison linux-image-amd64 2>/dev/null |
		awk -F' *[|] *' -v s=" $SUITE/main " 'index($3, s) { print $2; exit }') || true
	[ -n "$meta" ] || return 1
	pkg=$(apt-cache show "linux-image-amd64=$meta" 2>/dev/null |
		sed -n 's/^Depends: .*\(linux-image-6\.12\.[0-9.+~a-z-]*-amd64\).*/\1/p' | head -1) || true
	[ -n "$pkg" ] || return 1
	version=$(apt-cache madison "$pkg" 2>/dev/null |
		awk -F' *[|] *' -v s=" $SUITE/main " 'index($3, s) { print $2; exit }') || true
	[ -n "$version" ] || return 1
	printf '%s %s\n' "$pkg" "$version"
}

mkdir -p "$dir"
dir=$(realpath "$dir")
if ! found=$(candidate); then
	[ "$(id -u)" = 0 ] || die "apt knows no linux-image-6.12.*-amd64 behind $SUITE's linux-image-amd64; as root run: qemu/install-deps.sh"
	say "field kernel: apt-get update"
	apt-get update -q >&2
	found=$(candidate) || die "no linux-image-6.12.*-amd64 behind $SUITE's linux-image-amd64 after apt-get update (is $SUITE an apt source? qemu/install-deps.sh adds it)"
fi
pkg=${found% *}
version=${found#* }
deb=$dir/${pkg}_${version//:/%3a}_amd64.deb
if [ ! -f "$deb" ]; then
	say "field kernel: apt-get download $pkg=$version"
	rm -f "$dir"/linux-image-*.deb
	log=$(cd "$dir" && apt-get download -q "$pkg=$version" 2>&1) || {
		printf '%s\n' "$log" >&2
		die "apt-get download $pkg=$version failed"
	}
	[ -f "$deb" ] || die "apt-get download left no $deb"
fi
stamp="$(basename "$deb") $(sha256sum "$0" | cut -d' ' -f1)"
[ "$(cat "$dir/package" 2>/dev/null)" = "$stamp" ] && [ -f "$dir/vmlinuz" ] && exit 0

say "field kernel: unpacking $(basename "$deb")"
rm -rf "$dir/root" "$dir/modroot"
dpkg-deb -x "$deb" "$dir/root"
# Debian 13's packages ship /usr/lib/modules (merged /usr); depmod and
# modprobe here look under lib/modules.
if [ ! -e "$dir/root/lib" ] && [ -d "$dir/root/usr/lib/modules" ]; then
	ln -s usr/lib "$dir/root/lib"
fi
kver=$(ls "$dir/root/lib/modules")
[ "$(printf '%s\n' "$kver" | wc -l)" = 1 ] || die "$(basename "$deb") has not one kernel version: $kver"
"$DEPMOD" -b "$dir/root" "$kver"
mkdir -p "$dir/modroot/lib/modules/$kver"
cp "$dir/root/lib/modules/$kver"/modules.{order,builtin,builtin.modinfo} "$dir/modroot/lib/modules/$kver/"
# shellcheck disable=SC2086
deps=$("$MODPROBE" -C /dev/null -a -d "$dir/root" -S "$kver" --show-depends $MODULES) ||
	die "modprobe --show-depends $MODULES failed for $kver"
for ko in $(printf '%s\n' "$deps" | awk '$1 == "insmod" { print $2 }' | sort -u); do
	install -D -m 0644 "$ko" "$dir/modroot${ko#"$dir/root"}"
done
for m in $MODULES; do
	find "$dir/modroot" \( -name "$m.ko" -o -name "$m.ko.*" \) | grep -q . || die "$m.ko is not among $kver's modules"
done
"$DEPMOD" -b "$dir/modroot" "$kver"
cp "$dir/root/boot/vmlinuz-$kver" "$dir/vmlinuz.tmp"
mv "$dir/vmlinuz.tmp" "$dir/vmlinuz"
rm -rf "$dir/root"
printf '%s\n' "$stamp" >"$dir/package"
say "field kernel: $pkg $version ($kver), $(find "$dir/modroot" \( -name '*.ko' -o -name '*.ko.*' \) | wc -l) modules"
