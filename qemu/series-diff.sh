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
# a changed line as a change. The cover letters are compared as text.
#
# Prints "= NNNN subject" for a pair whose message and changes are the
# same, "~ NNNN subject" followed by a unified diff (A's lines "-", B's
# "+") for one that differs, and "only in DIR: NNNN subject" for a patch
# that has no pair. Exits 1 when a patch is in one series and not in the
# other, or the two list their patches in another order; a difference
# inside a pair is what a backport is, and not a failure. Exits 2 when a
# directory holds no patch.
set -eu

usage() {
	printf 'usage: series-diff.sh DIR_A DIR_B (directories of NNNN-*.patch files)\n' >&2
	exit 2
}
[ $# = 2 ] || usage
for d in "$1" "$2"; do
	compgen -G "$d/[0-9][0-9][0-9][0-9]-*.patch" >/dev/null || usage
done
a=$(realpath "$1")
b=$(realpath "$2")

# "subject<TAB>file" for every patch of directory $1, in file order.
subjects() {
	local p s
	for p in "$1"/[0-9][0-9][0-9][0-9]-*.patch; do
		[ -e "$p" ] || continue
		case "$(basename "$p")" in 0000-*) continue ;; esac
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
	n=$(basename "$p" | cut -c1-4)
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
		printf 'only in %s: %s %s\n' "$b" "$(basename "$p" | cut -c1-4)" "$s"
		status=1
	fi
done < <(subjects "$b")

if [ "$status" = 0 ] && [ "${order_a[*]}" != "${order_b[*]}" ]; then
	printf 'the two series order their patches differently\n'
	status=1
fi

ca=$a/0000-cover-letter.patch cb=$b/0000-cover-letter.patch
if [ -f "$ca" ] && [ -f "$cb" ]; then
	d=$(diff -u --label "$ca" --label "$cb" <(sed '1,/^$/d' "$ca") <(sed '1,/^$/d' "$cb") || true)
	if [ -z "$d" ]; then
		printf '= 0000 cover letter\n'
	else
		printf '~ 0000 cover letter\n%s\n' "$d"
	fi
fi
exit "$status"
