#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-trees.sh LOGS MACHINES BACKPORT_MACHINES TREE...
#
# "make check": run "make check-tree" for each kernel tree in turn, the
# first with MACHINES and every host check, the others with the guests of
# MACHINES that BACKPORT_MACHINES also names and only the host checks of
# their own series (checkpatch, W=1): mwictl's and the harness's tests do
# not depend on the tree. A tree after the first left with no guest (with
# ONLY_EXTRA=1: no guest that runs TESTS_EXTRA) is not built; the first
# always is, for its host checks, even with no guest.
#
# Each tree's check.sh leaves its counts in LOGS/TREE/counts (and the
# summary lines in LOGS/TREE/summary); a tree that left none (its
# kernel did not build) counts as one failure. Ends with the sum of all,
# "N skipped" and then "N passed, N failed" as the last line, also written
# to LOGS/summary, and exits non-zero on any failure.
set -u
here=$(dirname "$0")
. "$here/lib.sh"

logs=$1 machines=$2 backport=$3
shift 3
passed=0 failed=0 skipped=0 first=yes

# The guests of MACHINES ($1) that BACKPORT_MACHINES ($2) names, in
# MACHINES' order; with ONLY_EXTRA=1, only those that run TESTS_EXTRA.
backport_guests() {
	local m b out=""
	for m in $1; do
		[ "${ONLY_EXTRA:-0}" != 1 ] || runs_extra "$m" || continue
		for b in $2; do
			[ "$m" = "$b" ] && out="$out $m"
		done
	done
	printf '%s\n' "${out# }"
}

# Add a tree's counts, which check.sh leaves in $1 as "SKIPPED PASSED
# FAILED"; false when there are none (the tree's check never ran).
add_counts() {
	local s p f
	read -r s p f <"$1" || return 1
	case "$s$p$f" in '' | *[!0-9]*) return 1 ;; esac
	[ -n "$s" ] && [ -n "$p" ] && [ -n "$f" ] || return 1
	skipped=$((skipped + s)) passed=$((passed + p)) failed=$((failed + f))
}

mkdir -p "$logs"
rm -f "$logs/summary"
if [ $# = 0 ]; then
	printf 'not ok - TREES: no kernel tree to check (TREES is empty)\n'
	failed=1
fi
for tree in "$@"; do
	if [ "$first" = yes ]; then
		guests=$machines hostchecks=${HOST_CHECKS:-1}
	else
		guests=$(backport_guests "$machines" "$backport")
		hostchecks=tree
		[ "${HOST_CHECKS:-1}" = 0 ] && hostchecks=0
	fi
	if [ "$first" = no ] && [ -z "$guests" ]; then
		printf '# tree %s: not checked: none of the guests "%s" is in BACKPORT_MACHINES (%s)%s\n' \
			"$tree" "$machines" "$backport" "${ONLY_EXTRA:+ and runs TESTS_EXTRA (ONLY_EXTRA=1)}"
		continue
	fi
	first=no
	say "tree linux-source-$tree: guests $guests"
	printf '# tree linux-source-%s: guests %s\n' "$tree" "$guests"
	rm -f "$logs/$tree/summary" "$logs/$tree/counts"
	"${MAKE:-make}" -s --no-print-directory KVER="$tree" MACHINES="$guests" \
		HOST_CHECKS="$hostchecks" check-tree
	if ! add_counts "$logs/$tree/counts" 2>/dev/null; then
		printf 'not ok - tree %s: no summary: its kernel, modules or initramfs did not build\n' "$tree"
		failed=$((failed + 1))
	fi
done
printf '%d skipped\n%d passed, %d failed\n' "$skipped" "$passed" "$failed" | tee "$logs/summary"
[ "$failed" = 0 ]
