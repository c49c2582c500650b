#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# w1-check.sh KSRC KOBJ BASE [ARCH]
#
# Compile every C file that KSRC's commits since BASE touch with W=1, in
# KOBJ configured as "make allmodconfig" plus qemu/kernel-w1.config (and
# qemu/kernel-w1-ARCH.config where there is one), so
# that drivers no guest kernel enables (efct, adm8211, typhoon,
# cassini, ...) are compiled too. ARCH (default x86_64) is one of
# x86_64, powerpc, sh and s390; the last three use Debian's cross
# compilers, for the architectures where the series' code differs
# (PCI_DISABLE_MWI on powerpc and sh, s390's own <debugfs>/pci files).
# Files under arch/ are compiled only for their own architecture, and a
# file that ARCH's allmodconfig does not build (Xen on s390, say) is a
# skip. On x86_64 sparse checks them too (C=2, Debian's sparse), as the
# 0-day robot does (on 7.2 with __typeof_unqual__ read as __typeof__). Some of these files warn without the series (sparse
# in pci.c, gcc on the cross architectures), so the same objects are
# compiled at BASE too (in a worktree, KOBJ/base-tree) and only a warning
# the series adds fails. Prints TAP:
# one test per file, which fails on a compile error or a new warning in
# that file, and one for new warnings in the headers they include.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
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

# make in tree $1 with objects in $2.
kmake_in() {
	local tree=$1 obj=$2
	shift 2
	make -s -C "$tree" O="$obj" ARCH="$arch" CROSS_COMPILE="$cross" "$@"
}

# Configure $2 as allmodconfig + kernel-w1.config (+ kernel-w1-ARCH.config
# where there is one) for tree $1, once.
configure() {
	local stamp="$2/.pci-mwi-config" allconfig="$2/.pci-mwi-allconfig" want
	mkdir -p "$2"
	cat "$fragment" >"$allconfig"
	[ ! -f "$here/kernel-w1-$arch.config" ] || cat "$here/kernel-w1-$arch.config" >>"$allconfig"
	want=$(sha256sum <"$allconfig" | cut -d' ' -f1)
	if [ ! -f "$2/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
		kmake_in "$1" "$2" KCONFIG_ALLCONFIG="$allconfig" allmodconfig >/dev/null
		printf '%s\n' "$want" >"$stamp"
	fi
}

# The statements of Makefile $1, one a line (continuations joined).
statements() {
	sed -e ':a' -e '/\\$/N; s/\\\n/ /; ta' "$1"
}

# The CONFIG_ symbols that build the object $2 (a path relative to
# directory $1, ending in .o) according to $1/Makefile, one a line: the
# one of "obj-$(CONFIG_X) += $2" (or of the line that builds the
# composite object listing it, "foo-y += $2" or "foo-objs := $2"), and
# those of the "ifdef CONFIG_Y" blocks around it; "y" for obj-y.
symbols_in() {
	local dir=$1 obj=$2 line composite
	line=$(statements "$ksrc/$dir/Makefile" | awk -v obj="$obj" '
		/^ifdef CONFIG_/ { guard[++depth] = $2; next }
		/^if/ { guard[++depth] = ""; next }
		/^endif/ { depth--; next }
		/^[A-Za-z0-9_$()-]+[ \t]*[+:]?=/ {
			for (i = 2; i <= NF; i++)
				if ($i == obj) {
					for (d = 1; d <= depth; d++)
						if (guard[d] != "")
							print guard[d]
					print "STATEMENT " $0
					exit
				}
		}')
	[ -n "$line" ] || return 0
	printf '%s\n' "$line" | grep -v '^STATEMENT ' || true
	line=$(printf '%s\n' "$line" | sed -n 's/^STATEMENT //p')
	case "$line" in
	obj-y*) echo y ;;
	'obj-$(CONFIG_'*) line=${line#'obj-$('}; echo "${line%%)*}" ;;
	*-objs*|*-y*)
		composite=$(printf '%s\n' "$line" | sed -E 's/^([A-Za-z0-9_-]+)-(objs|y)[[:space:]]*[+:]?=.*/\1/')
		symbols_in "$dir" "$composite.o" ;;
	esac
}

# The CONFIG_ symbols that build the .c file $1, space-separated: from its
# directory's Makefile, or the parent's where the directory has none
# (drivers/scsi/elx/efct).
config_of() {
	local dir=${1%/*} obj=${1##*/}
	obj=${obj%.c}.o
	if [ ! -f "$ksrc/$dir/Makefile" ]; then
		obj=${dir##*/}/$obj
		dir=${dir%/*}
	fi
	symbols_in "$dir" "$obj" | sort -u | paste -sd' '
}

# True when $arch's allmodconfig builds the .c file $1: every symbol
# config_of names is y or m ("y" itself always holds).
configured() {
	local sym syms
	syms=$(config_of "$1")
	[ -n "$syms" ] || return 1
	for sym in $syms; do
		[ "$sym" = y ] || grep -qE "^$sym=(y|m)$" "$kobj/.config" || return 1
	done
}

# The warnings about file $1 in log $2, without line and column numbers.
warnings_of() {
	{ grep -E "^($ksrc/|(\\.\\./)*)$1:[0-9]+:[0-9]+: (warning|error):" "$2" || true; } |
		sed -E 's/:[0-9]+:[0-9]+: /: /' | sort -u
}

# Every warning in log $1 without line and column numbers.
all_warnings() {
	{ grep -E ': (warning|error):' "$1" || true; } | sed -E 's/:[0-9]+:[0-9]+: /: /' | sort -u
}

mapfile -t files < <({
	git -C "$ksrc" diff --name-only "$base" HEAD -- '*.c' | grep -v '^arch/' || true
	git -C "$ksrc" diff --name-only "$base" HEAD -- "arch/$srcarch/*.c"
})
configure "$ksrc" "$kobj"

built=() skipped=() objs=()
for f in "${files[@]}"; do
	if configured "$f"; then
		built+=("$f")
		objs+=("${f%.c}.o")
		# Always compile: an up-to-date object would print no warning.
		rm -f "$kobj/${f%.c}.o" "$kobj/base-obj/${f%.c}.o"
	else
		skipped+=("$f")
	fi
done
log="$kobj/w1.log"
baseline="$kobj/w1-base.log"
: >"$log"
: >"$baseline"
checks=(W=1)
# 7.2's scripts/checker-valid.sh refuses Debian's sparse (0.6.4, also in
# trixie) because it does not know __typeof_unqual__: then sparse reads
# it as __typeof__ (CF=-D...), which only loses the unqualifying, and
# the baseline comparison below drops what that alone makes it say.
typeof_unqual=
if [ "$arch" = x86_64 ]; then
	checks+=(C=2)
	if [ "$(sh "$ksrc/scripts/checker-valid.sh" sparse 2>/dev/null)" = 0 ] &&
		[ "$(sh "$ksrc/scripts/checker-valid.sh" sparse -D__typeof_unqual__=__typeof__ 2>/dev/null)" = 1 ]; then
		checks+=(CF=-D__typeof_unqual__=__typeof__)
		typeof_unqual=" with __typeof_unqual__ read as __typeof__"
	fi
fi
if [ "${#objs[@]}" -gt 0 ]; then
	kmake_in "$ksrc" "$kobj" -k "${checks[@]}" -j"$jobs" "${objs[@]}" >"$log" 2>&1 || true
	basetree=$kobj/base-tree
	[ -e "$basetree/.git" ] || git -C "$ksrc" worktree add -q --detach "$basetree" "$base"
	configure "$basetree" "$kobj/base-obj"
	{ kmake_in "$basetree" "$kobj/base-obj" -k "${checks[@]}" -j"$jobs" "${objs[@]}" 2>&1 || true; } |
		sed "s|$basetree/|$ksrc/|g" >"$baseline"
fi
what="W=1${checks[1]:+ and sparse}"
# A tree can still refuse Debian's sparse as too old (its
# scripts/checker-valid.sh): then only W=1 ran, and the sparse test is a
# skip.
sparse=
if [ "${#checks[@]}" -gt 1 ]; then
	sparse=ran
	if grep -q 'is not available or not up to date' "$log"; then
		sparse="$(sparse --version 2>/dev/null | head -1 || echo none)"
		what="W=1"
	fi
fi

extra=0
[ -z "$sparse" ] || extra=1
printf '1..%d\n' $((${#files[@]} + 1 + extra))
n=0
for f in "${skipped[@]}"; do
	n=$((n + 1))
	printf 'ok %d %s # skip not built by %s allmodconfig (%s)\n' "$n" "$f" "$arch" \
		"$(config_of "$f")"
done
for f in "${built[@]}"; do
	n=$((n + 1))
	# kbuild names the file by its path under KSRC, absolute or relative.
	warnings=$(comm -23 <(warnings_of "$f" "$log") <(warnings_of "$f" "$baseline"))
	if [ -z "$warnings" ] && [ -f "$kobj/${f%.c}.o" ]; then
		printf 'ok %d %s compiles with %s and no new warning (%s allmodconfig)\n' "$n" "$f" "$what" "$arch"
	else
		printf 'not ok %d %s compiles with %s and no new warning (%s allmodconfig)\n' "$n" "$f" "$what" "$arch"
		printf '%s\n' "${warnings:-(no object; see $log)}" | head -5 | sed 's/^/#   /'
	fi
done
if [ -n "$sparse" ]; then
	n=$((n + 1))
	if [ "$sparse" = ran ]; then
		printf 'ok %d sparse (C=2%s) checked those files (%s)\n' "$n" "$typeof_unqual" "$arch"
	else
		printf 'ok %d # skip sparse (C=2) did not run: this tree refuses Debian'"'"'s sparse %s as too old (scripts/checker-valid.sh)\n' "$n" "$sparse"
	fi
fi
n=$((n + 1))
others=$(comm -23 <(all_warnings "$log") <(all_warnings "$baseline") |
	grep -vF -f <(printf '/%s:\n' "${files[@]}") |
	grep -vE "^($(IFS='|'; echo "${files[*]}")):" || true)
if [ -z "$others" ]; then
	printf 'ok %d the headers those files include give no new %s warning (%s)\n' "$n" "$what" "$arch"
else
	printf 'not ok %d the headers those files include give no new %s warning (%s)\n' "$n" "$what" "$arch"
	printf '%s\n' "$others" | head -5 | sed 's/^/#   /'
fi
