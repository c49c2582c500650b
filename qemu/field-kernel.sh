#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# field-kernel.sh DIR
#
# The field guest's kernel: Debian's own signed linux-image-6.1.0-*-amd64,
# the one linux-image-amd64 depends on today, unpatched. Its package is
# fetched with apt-get download (no root, nothing installed on the host)
# into DIR, once; DIR/vmlinuz is its kernel, and DIR/modroot holds its own
# modules for the pc machine's devices (8139cp, 8139too, e1000, sym53c8xx)
# and what they depend on, indexed by depmod, for the initramfs. The
# package's name is in DIR/package.
set -eu
here=$(dirname "$0")
. "$here/lib.sh"

dir=$1
# The drivers of the pc machine's functions, as udev would load them there.
MODULES="8139cp 8139too e1000 sym53c8xx"

mkdir -p "$dir"
dir=$(realpath "$dir")
pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
	sed -n 's/^ *Depends: \(linux-image-6\.1\.0-[0-9]*-amd64\)$/\1/p' | head -1)
[ -n "$pkg" ] || die "apt-cache knows no linux-image-6.1.0-*-amd64 behind linux-image-amd64 (apt-get update?)"
deb=$(ls "$dir/${pkg}"_*.deb 2>/dev/null | head -1 || true)
if [ -z "$deb" ]; then
	say "field kernel: apt-get download $pkg"
	(cd "$dir" && apt-get download -q "$pkg" 2>&1 | grep -v '^W: Download is performed unsandboxed' >&2) ||
		die "apt-get download $pkg failed"
	deb=$(ls "$dir/${pkg}"_*.deb | head -1)
fi
[ "$(cat "$dir/package" 2>/dev/null)" = "$(basename "$deb")" ] && [ -f "$dir/vmlinuz" ] && exit 0

say "field kernel: unpacking $(basename "$deb")"
rm -rf "$dir/root" "$dir/modroot"
dpkg-deb -x "$deb" "$dir/root"
kver=$(ls "$dir/root/lib/modules")
/sbin/depmod -b "$dir/root" "$kver"
mkdir -p "$dir/modroot/lib/modules/$kver"
cp "$dir/root/lib/modules/$kver"/modules.{order,builtin,builtin.modinfo} "$dir/modroot/lib/modules/$kver/"
# shellcheck disable=SC2086
for ko in $(/sbin/modprobe -a -d "$dir/root" -S "$kver" --show-depends $MODULES |
	awk '$1 == "insmod" { print $2 }' | sort -u); do
	install -D -m 0644 "$ko" "$dir/modroot${ko#"$dir/root"}"
done
/sbin/depmod -b "$dir/modroot" "$kver"
cp "$dir/root/boot/vmlinuz-$kver" "$dir/vmlinuz.tmp"
mv "$dir/vmlinuz.tmp" "$dir/vmlinuz"
rm -rf "$dir/root"
basename "$deb" >"$dir/package"
say "field kernel: $pkg ($kver), $(find "$dir/modroot" -name '*.ko' | wc -l) modules"
