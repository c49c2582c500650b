#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series-tests.sh KSRC PATCHDIR
#
# Host-side tests of the kernel series, as TAP: every patch passes
# scripts/checkpatch.pl --strict with no error, warning or check, carries a
# Signed-off-by and a Cc: line for every maintainer and list that
# scripts/get_maintainer.pl names for it; the cover letter of its posting
# lists it, and each posting's patches carry one subject prefix; every C
# file and header the series touches gives no scripts/kernel-doc -Wall
# warning that the same file in the pristine tree does not; and the
# series of every other tree (the directories beside PATCHDIR) has the same
# patches in the same order (series-diff.sh).
set -eu
here=$(dirname "$0")/..
. "$here/lib.sh"

ksrc=$(realpath "$1")
patchdir=$(realpath "$2")
mapfile -t patches < <(series_patches "$patchdir")
mapfile -t covers < <(series_covers "$patchdir")
others=()
for d in "$patchdir"/../*/; do
	d=$(realpath "$d")
	[ "$d" = "$patchdir" ] || others+=("$d")
done
n=0

tap() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		printf 'ok %d %s\n' "$n" "$2"
	else
		printf 'not ok %d %s\n' "$n" "$2"
	fi
}

mapfile -t touched < <(git -C "$ksrc" diff --name-only pristine HEAD -- '*.c' '*.h')
printf '1..%d\n' $((3 * ${#patches[@]} + 2 * ${#covers[@]} + ${#touched[@]} + ${#others[@]}))
for p in "${patches[@]}"; do
	name=$(series_name "$p")
	out=$(cd "$ksrc" && ./scripts/checkpatch.pl --strict --no-tree --no-color "$p" 2>&1 || true)
	total=$(printf '%s\n' "$out" | grep '^total:' || echo 'total: none')
	rc=1
	case "$total" in "total: 0 errors, 0 warnings, 0 checks,"*) rc=0 ;; esac
	tap "$rc" "checkpatch --strict reports 0 errors, 0 warnings, 0 checks on $name"
	[ "$rc" = 0 ] || printf '%s\n' "$out" | grep -E '^(ERROR|WARNING|CHECK)' | sed 's/^/#   /'
	rc=0
	grep -q '^Signed-off-by: ' "$p" || rc=1
	tap "$rc" "$name has a Signed-off-by line"
	missing=$(cd "$ksrc" && ./scripts/get_maintainer.pl --no-git --no-git-fallback --no-rolestats \
		--no-r "$p" 2>/dev/null | while IFS= read -r who; do
			grep -qxF "Cc: $who" "$p" || printf '%s\n' "$who"
		done)
	rc=0
	[ -z "$missing" ] || rc=1
	tap "$rc" "$name has a Cc: line for everyone get_maintainer.pl names"
	[ "$rc" = 0 ] || printf '%s\n' "$missing" | sed 's/^/#   missing Cc: /' | head -5
done
# The subject of patch $1 without its "[PATCH ...]" prefix, and the prefix.
subject() {
	sed -n 's/^Subject: \[PATCH[^]]*\] //p' "$1"
}
prefix() {
	sed -n 's/^Subject: \[\(PATCH[^]]*\)\] .*/\1/p' "$1" | sed 's/ *[0-9]*\/[0-9]*$//'
}

for c in "${covers[@]}"; do
	d=$(dirname "$c")
	cname=$(series_name "$c")
	rc=0
	for p in "${patches[@]}"; do
		[ "$(dirname "$p")" = "$d" ] || continue
		s=$(subject "$p")
		[ -n "$s" ] && grep -qF -- "$s" "$c" || rc=1
	done
	tap "$rc" "$cname lists the subject of every patch of its posting"
	rc=0
	want=$(prefix "$c")
	for p in "${patches[@]}"; do
		[ "$(dirname "$p")" = "$d" ] || continue
		[ "$(prefix "$p")" = "$want" ] || rc=1
	done
	tap "$rc" "$cname and its patches carry one subject prefix ($want)"
done
# scripts/kernel-doc -Wall's warnings for file $2 as tree $1 has it (HEAD
# or pristine), without line numbers.
kdoc_warnings() {
	local tmp
	tmp=$(mktemp --suffix=".${2##*.}")
	git -C "$ksrc" show "$1:$2" >"$tmp" 2>/dev/null || : >"$tmp"
	(cd "$ksrc" && ./scripts/kernel-doc -Wall -none "$tmp" 2>&1) |
		sed -e "s|$tmp|$2|g" -e 's/:[0-9][0-9]*\b//g' | sort -u
	rm -f "$tmp"
}

for f in "${touched[@]}"; do
	new=$(comm -13 <(kdoc_warnings pristine "$f") <(kdoc_warnings HEAD "$f"))
	rc=0
	[ -z "$new" ] || rc=1
	tap "$rc" "scripts/kernel-doc -Wall finds nothing new in $f"
	[ "$rc" = 0 ] || printf '%s\n' "$new" | head -5 | sed 's/^/#   /'
done
for d in "${others[@]}"; do
	rc=0
	out=$("$here/checks/series-diff.sh" "$patchdir" "$d" 2>&1) || rc=1
	tap "$rc" "kernel-patches/$(basename "$d") has the same patches in the same order"
	[ "$rc" = 0 ] || printf '%s\n' "$out" | grep -E '^(only in|the two series)' | sed 's/^/#   /'
done
