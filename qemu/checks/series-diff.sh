#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series-diff.sh DIR_A DIR_B
#
# How two versions of the series (git format-patch output, one directory
# per tree) differ, patch by patch, as interdiff would show it: patches are
# paired by subject, and for each pair the commit messages and the changes
# are compared with what only locates them removed (index lines, hunk line
# numbers, context lines), so that a hunk that moved shows as the same and
# a changed line as a change. A series is one posting or one subdirectory
# per posting (lib.sh's series_patches()); its cover letters are compared,
# one after the other, as text.
#
# Prints "= NNNN subject" for a pair whose message and changes are the
# same, "~ NNNN subject" followed by a unified diff (A's lines "-", B's
# "+") for one that differs, and "only in DIR: NNNN subject" for a patch
# that has no pair. Exits 1 when a patch is in one series and not in the
# other, or the two list their patches in another order; a difference
# inside a pair is what a backport is, and not a failure. Exits 2 when a
# directory holds no patch.
set -eu
. "$(dirname "$0")/../lib.sh"

usage() {
	printf 'usage: series-diff.sh DIR_A DIR_B (series: NNNN-*.patch files, or a subdirectory of them per posting)\n' >&2
	exit 2
}
[ $# = 2 ] || usage
for d in "$1" "$2"; do
	[ -n "$(series_patches "$d")" ] || usage
done
a=$(realpath "$1")
b=$(realpath "$2")

# "subject<TAB>file" for every patch of directory $1, in file order.
subjects() {
	local p s
	series_patches "$1" | while IFS= read -r p; do
		s=$(awk '/^Subject: / { s = $0; on = 1; next }
			on && /^[ \t]/ { s = s $0; next }
			on { exit } END { sub(/^Subject: \[PATCH[^]]*\] /, "", s); print s }' "$p")
		printf '%s\t%s\n' "$s" "$p"
	done
}

# The commit message of patch $1: from the end of the headers to "---".
message() {
	awk 'on && /^---$/ { exit } on; /^$/ { on = 1 }' "$1"
}

# Patch $1 without its signature: the lines from the last "-- " on (a
# removed line "- " reads the same, but is never the last).
unsigned() {
	if grep -qx -- '-- ' "$1"; then
		tac "$1" | sed '0,/^-- $/d' | tac
	else
		cat "$1"
	fi
}

# The changes of patch $1: file names, hunk function context and the
# added and removed lines, without line numbers, index lines or context.
changes() {
	unsigned "$1" | awk '
	/^diff --git / { body = 1; print; next }
	!body { next }
	/^index / { next }
	/^@@ / { sub(/^@@ [^@]* @@ ?/, ""); print "@@ " $0; next }
	/^(\+\+\+|---) / { print; next }
	/^[-+]/ { print }
	'
}

# Message and changes of patch $1, as compared.
normalised() {
	message "$1"
	printf '%s\n' '--- changes'
	changes "$1"
}

status=0
declare -A in_b=() paired=()
while IFS=$'\t' read -r s p; do
	in_b[$s]=$p
done < <(subjects "$b")

order_a=() order_b=()
while IFS=$'\t' read -r s p; do
	order_a+=("$s")
	n=$(series_name "$p" | sed 's/^\(\([^/]*\/\)\{0,1\}[0-9]\{4\}\)-.*/\1/')
	if [ -z "${in_b[$s]:-}" ]; then
		printf 'only in %s: %s %s\n' "$a" "$n" "$s"
		status=1
		continue
	fi
	d=$(diff -u --label "$a/$(basename "$p")" --label "$b/$(basename "${in_b[$s]}")" \
		<(normalised "$p") <(normalised "${in_b[$s]}") || true)
	if [ -z "$d" ]; then
		printf '= %s %s\n' "$n" "$s"
	else
		printf '~ %s %s\n%s\n' "$n" "$s" "$d"
	fi
	paired[$s]=yes
done < <(subjects "$a")

while IFS=$'\t' read -r s p; do
	order_b+=("$s")
	if [ -z "${paired[$s]:-}" ]; then
		printf 'only in %s: %s %s\n' "$b" "$(series_name "$p" | sed 's/^\(\([^/]*\/\)\{0,1\}[0-9]\{4\}\)-.*/\1/')" "$s"
		status=1
	fi
done < <(subjects "$b")

if [ "$status" = 0 ] && [ "${order_a[*]}" != "${order_b[*]}" ]; then
	printf 'the two series order their patches differently\n'
	status=1
fi

# The bodies of the cover letters of series $1, one after the other.
covers() {
	local c
	series_covers "$1" | while IFS= read -r c; do
		sed '1,/^$/d' "$c"
	done
}

if [ -n "$(series_covers "$a")" ] && [ -n "$(series_covers "$b")" ]; then
	d=$(diff -u --label "$a (cover letters)" --label "$b (cover letters)" <(covers "$a") <(covers "$b") || true)
	if [ -z "$d" ]; then
		printf '= 0000 cover letter\n'
	else
		printf '~ 0000 cover letter\n%s\n' "$d"
	fi
fi
exit "$status"
