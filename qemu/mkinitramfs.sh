#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh OUT.cpio MODROOT TESTDIR [PROGRAM|MODULE.ko...]
#
# Pack the guest's root file system: busybox-static, bash, bats with
# bats-support and bats-assert, lspci/setpci with pci.ids, setpriv, udevadm
# and systemd-udevd (udevadm by another name) with Debian's 80-drivers.rules
# (into /usr/lib/pci-mwi, for the tests that want udev to load drivers),
# Debian's modprobe (kmod) as /usr/lib/pci-mwi/modprobe, off PATH (busybox's
# modprobe, first on PATH, ignores install lines; sim-modprobe.bats), the
# kernel's modules, the tests, qemu/init and the project's PROGRAMs (into
# /usr/bin) and out-of-tree modules (into the kernel's extra/, indexed by
# depmod so that udev finds them by modalias, and linked from
# /usr/lib/pci-mwi). Host binaries bring the shared libraries they load.
set -eu
here=$(dirname "$0")
. "$here/lib.sh"

out=$1
modroot=$2
testdir=$3
shift 3
root=$(mktemp -d)
chmod 0755 "$root"
trap 'rm -rf "$root"' EXIT

# Copy host files into the guest root at the same path.
copy_file() {
	local f
	for f in "$@"; do
		mkdir -p "$root$(dirname "$f")"
		cp -a "$f" "$root$f"
	done
}

# Copy the shared libraries a program needs. The guest has merged /usr like
# the host, so a library is copied at its path under the real directory,
# keeping symlinks and their targets.
copy_libraries() {
	local lib path
	for lib in $(ldd "$1" 2>/dev/null | grep -o '/[^ ]*'); do
		path="$(realpath "$(dirname "$lib")")/$(basename "$lib")"
		[ -e "$root$path" ] && continue
		copy_file "$path"
		[ -L "$path" ] && copy_file "$(realpath "$path")"
	done
}

# Copy a host program and the libraries it needs.
copy_program() {
	local bin
	bin=$(command -v "$1") || die "host program $1 not found"
	copy_file "$(realpath "$bin")"
	copy_libraries "$bin"
}

# Copy what a Debian package installed, minus documentation.
copy_package() {
	local f
	dpkg -L "$1" | while IFS= read -r f; do
		case "$f" in /usr/share/doc/* | /usr/share/man/* | /usr/share/lintian/*) continue ;; esac
		if [ -f "$f" ] && [ ! -e "$root$f" ]; then
			copy_file "$f"
		fi
	done
}

mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,root,run,mnt,tests,tests-extra} \
	"$root"/usr/{bin,lib,lib64}
ln -s usr/lib "$root/lib"
ln -s usr/lib64 "$root/lib64"
ln -s /bin/busybox "$root/usr/bin/env"
cp /bin/busybox "$root/bin/busybox"
for applet in $(/bin/busybox --list); do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done

copy_program bash
ln -sf /usr/bin/bash "$root/bin/bash"
copy_program lspci
copy_program setpci
copy_program setpriv
copy_program unshare
copy_file /usr/share/misc/pci.ids
# Debian's udev for tests-bats/sim-udev.bats: systemd-udevd is udevadm
# called by that name.
copy_program udevadm
mkdir -p "$root/usr/lib/systemd"
ln -s "$(realpath "$(command -v udevadm)")" "$root/usr/lib/systemd/systemd-udevd"
for pkg in bats bats-support bats-assert; do
	copy_package "$pkg"
done
# Debian's 80-drivers.rules, from the udev package wherever it put it.
rules=$(dpkg -L udev | grep -m1 '/rules\.d/80-drivers\.rules$') ||
	die "udev's 80-drivers.rules not found (dpkg -L udev)"
install -D -m 0644 "$rules" "$root/usr/lib/pci-mwi/80-drivers.rules"
# kmod runs as the program its name says: here modprobe, with install lines.
copy_program kmod
ln -s "$(realpath "$(command -v kmod)")" "$root/usr/lib/pci-mwi/modprobe"
if [ -d "$modroot/lib/modules" ]; then
	mkdir -p "$root/lib/modules"
	cp -a "$modroot/lib/modules/." "$root/lib/modules/"
fi
kver=$(ls "$root/lib/modules" 2>/dev/null || true)
[ "$(printf '%s\n' "$kver" | grep -c .)" -le 1 ] || die "$modroot holds more than one kernel: $kver"
for file in "$@"; do
	case "$file" in
	*.ko)
		if [ -n "$kver" ]; then
			install -D -m 0644 "$file" "$root/lib/modules/$kver/extra/$(basename "$file")"
			mkdir -p "$root/usr/lib/pci-mwi"
			ln -s "/lib/modules/$kver/extra/$(basename "$file")" "$root/usr/lib/pci-mwi/"
		else
			install -D -m 0644 "$file" "$root/usr/lib/pci-mwi/$(basename "$file")"
		fi
		;;
	*)
		install -D -m 0755 "$file" "$root/usr/bin/$(basename "$file")"
		copy_libraries "$file"
		;;
	esac
done

[ -z "$kver" ] || "$(command -v depmod || echo /sbin/depmod)" -b "$root" "$kver"

cp "$testdir"/*.bats "$root/tests/"
mkdir -p "$root/usr/lib/bats/pci-mwi"
install -m 0644 "$testdir"/lib/*.bash "$testdir"/lib/*.awk "$root/usr/lib/bats/pci-mwi/"
install -m 0644 "$here/../userspace/tests/list-names.awk" "$root/usr/lib/bats/pci-mwi/"
install -m 0755 "$here/init" "$root/init"
printf 'root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n' >"$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"

reproducible_cpio "$root" >"$out.tmp"
mv "$out.tmp" "$out"
say "initramfs: $out ($(du -h "$out" | cut -f1))"
