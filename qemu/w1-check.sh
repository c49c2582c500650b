#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# w1-check.sh KSRC KOBJ BASE [ARCH]
#
# Compile every C file that KSRC's commits since BASE touch with W=1, in
# KOBJ configured as "make allmodconfig" plus qemu/kernel-w1.config, so
# that drivers no guest kernel enables (efct, qla4xxx, rt2x00pci,
# xen-pciback, ...) are compiled too. ARCH (default x86_64) is one of
# x86_64, powerpc, sh and s390; the last three use Debian's cross
# compilers, for the architectures where the series' code differs
# (PCI_DISABLE_MWI on powerpc and sh, s390's own <debugfs>/pci files).
# Files under arch/ are compiled only for their own architecture. Prints
# TAP: one test per file, which fails on a compile error or any warning
# in that file, and one for warnings in the headers they include.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

ksrc=$(realpath "$1")
kobj=$(realpath -m "$2")
base=$3
arch=${4:-x86_64}
fragment=$here/kernel-w1.config
jobs=$(($(nproc) + 1))
case "$arch" in
x86_64) srcarch=x86 cross= ;;
powerpc) srcarch=powerpc cross=powerpc64le-linux-gnu- ;;
sh) srcarch=sh cross=sh4-linux-gnu- ;;
s390) srcarch=s390 cross=s390x-linux-gnu- ;;
*) die "w1-check.sh: unknown architecture $arch" ;;
esac
kmake() {
	make -s -C "$ksrc" O="$kobj" ARCH="$arch" CROSS_COMPILE="$cross" "$@"
}

mapfile -t files < <(git -C "$ksrc" diff --name-only "$base" HEAD -- '*.c' |
	grep -E -v "^arch/" ; git -C "$ksrc" diff --name-only "$base" HEAD -- "arch/$srcarch/*.c")
mkdir -p "$kobj"
stamp="$kobj/.pci-mwi-config"
want=$(sha256sum <"$fragment" | cut -d' ' -f1)
if [ ! -f "$kobj/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	kmake KCONFIG_ALLCONFIG="$fragment" allmodconfig >/dev/null
	printf '%s\n' "$want" >"$stamp"
fi

objs=()
for f in "${files[@]}"; do
	objs+=("${f%.c}.o")
	# Always compile: an up-to-date object would print no warning.
	rm -f "$kobj/${f%.c}.o"
done
log="$kobj/w1.log"
rc=0
if [ "${#objs[@]}" -gt 0 ]; then
	kmake W=1 -j"$jobs" "${objs[@]}" >"$log" 2>&1 || rc=$?
else
	: >"$log"
fi

printf '1..%d\n' $((${#files[@]} + 1))
n=0
for f in "${files[@]}"; do
	n=$((n + 1))
	# kbuild names the file by its path under KSRC, absolute or relative.
	warnings=$(grep -E "^($ksrc/|(\\.\\./)*)$f:[0-9]+:[0-9]+: (warning|error):" "$log" || true)
	if [ "$rc" = 0 ] && [ -z "$warnings" ] && [ -f "$kobj/${f%.c}.o" ]; then
		printf 'ok %d %s compiles with W=1 and no warning ($arch allmodconfig)\n' "$n" "$f"
	else
		printf 'not ok %d %s compiles with W=1 and no warning ($arch allmodconfig)\n' "$n" "$f"
		printf '%s\n' "${warnings:-(no object; see $log)}" | head -5 | sed 's/^/#   /'
	fi
done
n=$((n + 1))
others=$(grep -E ': (warning|error):' "$log" | grep -vF -f <(printf '/%s:\n' "${files[@]}") |
	grep -vE "^($(IFS='|'; echo "${files[*]}")):" || true)
if [ -z "$others" ]; then
	printf 'ok %d the headers those files include give no W=1 warning ($arch)\n' "$n"
else
	printf 'not ok %d the headers those files include give no W=1 warning ($arch)\n' "$n"
	printf '%s\n' "$others" | head -5 | sed 's/^/#   /'
fi
