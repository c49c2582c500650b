#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-trees.sh [--no-host-checks] LOGS MACHINES BACKPORT_MACHINES TREE...
#
# "make check" (and, for one tree with --no-host-checks, "make
# check-tree"): for each kernel tree in turn, build what its guests need
# (make build-tree), then run its guests (make guests: guests.sh) beside
# its tree's host checks (make tree-checks: tree-checks.sh: series, W=1,
# struct pci_dev); the first tree with MACHINES, the others
# with the guests of MACHINES that BACKPORT_MACHINES also names. Beside
# the first tree's guests (the first tree that builds), once, the host
# checks that depend on no tree
# (make host-checks: host-checks.sh: mwictl's, shellcheck, the harness's
# own tests); --no-host-checks leaves them out. A tree after the first
# left with no guest (with ONLY_EXTRA=1: no guest that runs TESTS_EXTRA)
# is not built; the first always is, for its host checks, even with no
# guest.
#
# The guests' TAP streams print when the last guest has finished; the
# host checks' after them, each part under its heading (its stderr, make's
# error lines among them, after its stream). Each part leaves its counts as data
# in its directory ("SKIPPED PASSED FAILED" in counts: tap.sh); a part
# that left none (its tree did not build, or it stopped) is one named
# failure. Ends with the sum of all, "N skipped" and then "N passed, N
# failed" as the last line, also written to LOGS/summary, and exits
# non-zero on any failure.
set -u
here=$(dirname "$0")
. "$here/lib.sh"

host=yes
if [ "${1:-}" = --no-host-checks ]; then
	host=no
	shift
fi
logs=$1 machines=$2 backport=$3
shift 3
passed=0 failed=0 skipped=0 first=yes
make=${MAKE:-make}

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

# Add the counts a part left in $2/counts, "SKIPPED PASSED FAILED"; one
# failure, named for part $1, when there are none.
add_counts() {
	local s p f
	if { read -r s p f <"$2/counts"; } 2>/dev/null && [ -n "$s" ] && [ -n "$p" ] && [ -n "$f" ]; then
		case "$s$p$f" in
		*[!0-9]*) ;;
		*)
			skipped=$((skipped + s)) passed=$((passed + p)) failed=$((failed + f))
			return 0
			;;
		esac
	fi
	printf 'not ok - %s: no counts in %s (it stopped before its summary)\n' "$1" "$2"
	failed=$((failed + 1))
}

# Print the stream part $1 left in $2.tap (its stdout), under a heading,
# then what it wrote to stderr ($2.err) as comments.
show_part() {
	printf '# %s\n' "$1"
	cat "$2.tap" 2>/dev/null || true
	sed 's/^/#   /' "$2.err" 2>/dev/null || true
}

# The parts in the background run in process groups of their own: an
# interrupt stops them and everything they started (a background job
# ignores SIGINT; a W=1 build or a guest left running would race the next
# run in the same directories).
parts=()
stop_parts() {
	local p
	for p in "${parts[@]}"; do
		kill -TERM -- "-$p" 2>/dev/null || true
	done
	wait
}
trap 'stop_parts; exit 130' INT TERM

mkdir -p "$logs"
rm -f "$logs/summary"
if [ $# = 0 ]; then
	printf 'not ok - TREES: no kernel tree to check (TREES is empty)\n'
	failed=1
fi
host_pid=""
for tree in "$@"; do
	if [ "$first" = yes ]; then
		guests=$machines
	else
		guests=$(backport_guests "$machines" "$backport")
	fi
	if [ "$first" = no ] && [ -z "$guests" ]; then
		printf '# tree %s: not checked: none of the guests "%s" is in BACKPORT_MACHINES (%s)%s\n' \
			"$tree" "$machines" "$backport" "${ONLY_EXTRA:+ and runs TESTS_EXTRA (ONLY_EXTRA=1)}"
		continue
	fi
	say "tree linux-source-$tree: guests $guests"
	printf '# tree linux-source-%s: guests %s\n' "$tree" "$guests"
	rm -rf "$logs/$tree/counts" "$logs/$tree/tree/counts"
	mkdir -p "$logs/$tree"
	if ! "$make" -s --no-print-directory KVER="$tree" MACHINES="$guests" build-tree; then
		printf 'not ok - tree %s: its kernel, modules or initramfs did not build\n' "$tree"
		failed=$((failed + 1))
		first=no
		continue
	fi
	if [ "$host" = yes ]; then
		host=ran
		rm -f "$logs/host/counts"
		setsid "$make" -s --no-print-directory KVER="$tree" host-checks \
			>"$logs/host.tap" 2>"$logs/host.err" &
		host_pid=$!
		parts+=("$host_pid")
	fi
	setsid "$make" -s --no-print-directory KVER="$tree" MACHINES="$guests" tree-checks \
		>"$logs/$tree/tree.tap" 2>"$logs/$tree/tree.err" &
	tree_pid=$!
	parts+=("$tree_pid")
	if [ -n "$guests" ]; then
		"$make" -s --no-print-directory KVER="$tree" MACHINES="$guests" guests
		add_counts "tree $tree: guests" "$logs/$tree"
	fi
	wait "$tree_pid"
	show_part "tree linux-source-$tree: host checks of its series" "$logs/$tree/tree"
	add_counts "tree $tree: host checks" "$logs/$tree/tree"
	if [ -n "$host_pid" ]; then
		wait "$host_pid"
		show_part "host checks (no kernel tree)" "$logs/host"
		add_counts "host checks" "$logs/host"
		host_pid=""
	fi
	parts=()
	first=no
done
if [ "$host" = yes ] && [ $# != 0 ]; then
	printf 'not ok - host checks: not run: no tree built (they run beside the first that does)\n'
	failed=$((failed + 1))
fi
printf '%d skipped\n%d passed, %d failed\n' "$skipped" "$passed" "$failed" | tee "$logs/summary"
[ "$failed" = 0 ]
