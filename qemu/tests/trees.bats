#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Two kernel trees: check-trees.sh (make check's loop over the trees and
# its parts, with "make" replaced by a fake that records its arguments and
# leaves the counts the test asks for) and series-diff.sh (the two series compared
# patch by patch), on made-up series and on the real ones.

setup() {
	load helpers
	HARNESS=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
	LOGS=$BATS_TEST_TMPDIR/logs
	fake_make
	# what make check exports to its recipes, this file among them
	unset KVER MACHINES ONLY_EXTRA
}

# A "make" that records "KVER|MACHINES|TARGET" in $LOGS/calls and leaves
# the counts each target's script would: guests the summary that
# FAKE_SUMMARY_<tree, dot as _> holds ("1 skipped, 2 passed, 0 failed"
# unset), tree-checks and host-checks one passed test each. build-tree
# fails (the kernel did not build) when FAKE_SUMMARY_<tree> is "none";
# FAKE_STOP=<target> leaves that target without counts, with make's error
# line on stderr; FAKE_SLOW=<target> makes it sleep 5 s first, then touch
# $LOGS/finished.
fake_make() {
	export MAKE=$BATS_TEST_TMPDIR/make LOGS
	cat >"$MAKE" <<'SH'
#!/bin/bash
target=""
for a in "$@"; do
	case "$a" in KVER=* | MACHINES=*) export "${a?}" ;; -*) ;; *) target=$a ;; esac
done
echo "$KVER|$MACHINES|$target" >>"$LOGS/calls"
var=FAKE_SUMMARY_${KVER//./_}
summary=${!var:-$'1 skipped\n2 passed, 0 failed'}
case "$target" in
build-tree) [ "$summary" != none ] || exit 2; exit 0 ;;
guests) dir=$LOGS/$KVER ;;
tree-checks) dir=$LOGS/$KVER/tree summary=$'0 skipped\n1 passed, 0 failed' ;;
host-checks) dir=$LOGS/host summary=$'0 skipped\n1 passed, 0 failed' ;;
esac
if [ "${FAKE_SLOW:-}" = "$target" ]; then
	sleep 5
	touch "$LOGS/finished"
fi
printf '%s\n' "$summary"
if [ "${FAKE_STOP:-}" = "$target" ]; then
	echo "make: *** [Makefile:1: $target] Error 1" >&2
	exit 1
fi
mkdir -p "$dir"
printf '%s\n' "$summary" | tr -c '0-9\n' ' ' | xargs | awk '{ print $1, $2, $3 }' >"$dir/counts"
case "$summary" in *", 0 failed") exit 0 ;; *) exit 1 ;; esac
SH
	chmod +x "$MAKE"
}

run_trees() {
	run "$HARNESS/check-trees.sh" "$LOGS" "$@"
}

# The calls of one target, "KVER|MACHINES" a line.
calls_of() {
	sed -n "s/|$1\$//p" "$LOGS/calls"
}

@test "the parts' counts add up, and the total is the last line and the summary file" {
	FAKE_SUMMARY_6_1=$'0 skipped\n5 passed, 0 failed' run_trees 'pc sim stress' 'pc sim' 6.12 6.1
	assert_success
	assert_line '1 skipped'
	# guests 2 + 5, each tree's series checks 1, the host checks 1
	assert_last_line '10 passed, 0 failed'
	assert_equal "$(tail -n 1 "$LOGS/summary")" '10 passed, 0 failed'
}

@test "each tree builds, then runs its guests and series checks; the host checks run once, beside the first" {
	run_trees 'pc q35 sim stress field' 'pc sim' 6.12 6.1
	assert_success
	assert_equal "$(calls_of build-tree)" $'6.12|pc q35 sim stress field\n6.1|pc sim'
	assert_equal "$(calls_of guests)" $'6.12|pc q35 sim stress field\n6.1|pc sim'
	assert_equal "$(calls_of tree-checks)" $'6.12|pc q35 sim stress field\n6.1|pc sim'
	assert_equal "$(calls_of host-checks)" '6.12|'
	assert_line '# tree linux-source-6.1: guests pc sim'
	assert_line '# host checks (no kernel tree)'
}

@test "--no-host-checks (make check-tree) leaves out the host checks of no tree, not the series'" {
	run "$HARNESS/check-trees.sh" --no-host-checks "$LOGS" 'pc sim' '' 6.1
	assert_success
	assert_equal "$(calls_of host-checks)" ''
	assert_equal "$(calls_of tree-checks)" '6.1|pc sim'
	assert_last_line '3 passed, 0 failed'
}

@test "a tree with none of BACKPORT_MACHINES' guests is not built, and says so" {
	run_trees 'q35 stress' 'pc sim' 6.12 6.1
	assert_success
	assert_equal "$(calls_of build-tree)" '6.12|q35 stress'
	assert_line --partial '# tree 6.1: not checked: none of the guests "q35 stress"'
	assert_last_line '4 passed, 0 failed'
}

@test "with ONLY_EXTRA=1 the next tree gets only the guests that run TESTS_EXTRA, or is not built" {
	ONLY_EXTRA=1 run_trees 'pc sim' 'pc sim' 6.12 6.1
	assert_success
	assert_equal "$(calls_of build-tree)" $'6.12|pc sim\n6.1|pc'
	rm "$LOGS/calls"
	ONLY_EXTRA=1 run_trees 'q35 sim' 'pc sim' 6.12 6.1
	assert_success
	assert_equal "$(calls_of build-tree)" '6.12|q35 sim'
}

@test "the first tree runs its host checks with no guest; no tree at all is a named failure" {
	run_trees '' 'pc sim' 6.12 6.1
	assert_success
	assert_equal "$(calls_of guests)" ''
	assert_equal "$(calls_of tree-checks)" '6.12|'
	assert_equal "$(calls_of host-checks)" '6.12|'
	assert_last_line '2 passed, 0 failed'
	run_trees 'pc' 'pc sim'
	assert_failure
	assert_line 'not ok - TREES: no kernel tree to check (TREES is empty)'
	assert_last_line '0 passed, 1 failed'
}

@test "a tree whose kernel does not build is a named failure, and the next tree still runs" {
	FAKE_SUMMARY_6_12=none run_trees 'pc sim' 'pc sim' 6.12 6.1
	assert_failure
	assert_line 'not ok - tree 6.12: its kernel, modules or initramfs did not build'
	assert_equal "$(calls_of build-tree)" $'6.12|pc sim\n6.1|pc sim'
	# 6.1: guests 2, series 1; the host checks with the first tree built
	assert_last_line '4 passed, 1 failed'
}

@test "a part that leaves no counts is a named failure, its stderr shown under its heading" {
	FAKE_STOP=host-checks run_trees 'pc' 'pc sim' 6.12
	assert_failure
	assert_line --partial 'not ok - host checks: no counts in'
	assert_line '#   make: *** [Makefile:1: host-checks] Error 1'
	FAKE_STOP=guests run_trees 'pc' 'pc sim' 6.12
	assert_failure
	assert_line --partial 'not ok - tree 6.12: guests: no counts in'
}

@test "when no tree builds, the host checks that run beside the first are a named failure" {
	FAKE_SUMMARY_6_12=none run_trees 'pc' 'pc sim' 6.12
	assert_failure
	assert_line 'not ok - host checks: not run: no tree built (they run beside the first that does)'
	assert_equal "$(calls_of host-checks)" ''
	assert_last_line '0 passed, 2 failed'
}

@test "an interrupt stops the parts running in the background, and what they started" {
	FAKE_SLOW=host-checks "$HARNESS/check-trees.sh" "$LOGS" 'pc' 'pc sim' 6.12 >/dev/null 2>&1 &
	local pid=$! i
	for ((i = 0; i < 50; i++)); do
		calls_of host-checks 2>/dev/null | grep -q . && break
		sleep 0.1
	done
	kill -TERM "$pid"
	local rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" 130
	sleep 6
	[ ! -e "$LOGS/finished" ]
}

@test "a failure in either tree fails the run" {
	FAKE_SUMMARY_6_1=$'0 skipped\n4 passed, 1 failed' run_trees 'pc sim' 'pc sim' 6.12 6.1
	assert_failure
	assert_last_line '9 passed, 1 failed'
}

# A series in directory $1: patches "0001-one" and "0002-two", each adding
# the line given (default "one" and "two") to a file, with hunk line
# numbers $4 (default 1).
make_series() {
	local dir=$BATS_TEST_TMPDIR/$1 n name line
	mkdir -p "$dir"
	for n in 1 2; do
		name=$([ "$n" = 1 ] && echo one || echo two)
		line=${2:-one}
		[ "$n" = 2 ] && line=${3:-two}
		cat >"$dir/000$n-$name.patch" <<PATCH
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: a <a@example.org>
Subject: [PATCH v3 $n/2] x: Patch $name

Why $name.

Signed-off-by: a <a@example.org>
---
diff --git a/f b/f
index 1111111..2222222 100644
--- a/f
+++ b/f
@@ -${4:-1},2 +${4:-1},3 @@ int f(void)
 context
+$line
 context
-- 
2.39.5
PATCH
	done
}

@test "series-diff: the same changes at other line numbers pair as the same" {
	make_series a
	make_series b one two 40
	run "$HARNESS/checks/series-diff.sh" "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
	assert_success
	assert_output $'= 0001 x: Patch one\n= 0002 x: Patch two'
}

@test "series-diff: a changed line shows as that line's diff, and is not a failure" {
	make_series a
	make_series b one TWO
	run "$HARNESS/checks/series-diff.sh" "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
	assert_success
	assert_line '= 0001 x: Patch one'
	assert_line '~ 0002 x: Patch two'
	assert_line '-+two'
	assert_line '++TWO'
}

@test "series-diff: a patch in one series and not the other fails, named" {
	make_series a
	make_series b
	rm "$BATS_TEST_TMPDIR/b/0002-two.patch"
	run "$HARNESS/checks/series-diff.sh" "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
	assert_failure
	assert_line "only in $BATS_TEST_TMPDIR/a: 0002 x: Patch two"
}

@test "series-diff: the same patches in another order fail" {
	make_series a
	make_series b
	mv "$BATS_TEST_TMPDIR/b/0001-one.patch" "$BATS_TEST_TMPDIR/b/0003-one.patch"
	run "$HARNESS/checks/series-diff.sh" "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
	assert_failure
	assert_line 'the two series order their patches differently'
}

@test "series-diff: the real 7.2 postings and the 6.12 backport pair their 13 patches and cover letters" {
	run "$HARNESS/checks/series-diff.sh" "$HARNESS/../kernel-patches/7.2" "$HARNESS/../kernel-patches/6.12"
	assert_success
	refute_line --partial 'only in'
	assert_equal "$(grep -c '^[=~] \([0-9]-[a-z-]*/\)\{0,1\}00[0-9][0-9] ' <<<"$output")" 14
}

@test "series-diff: a series of postings in subdirectories pairs with a flat one, in merge order" {
	make_series a
	make_series flat
	mkdir -p "$BATS_TEST_TMPDIR/b/1-net" "$BATS_TEST_TMPDIR/b/2-pci"
	mv "$BATS_TEST_TMPDIR/a/0001-one.patch" "$BATS_TEST_TMPDIR/b/1-net/0001-one.patch"
	mv "$BATS_TEST_TMPDIR/a/0002-two.patch" "$BATS_TEST_TMPDIR/b/2-pci/0001-two.patch"
	run "$HARNESS/checks/series-diff.sh" "$BATS_TEST_TMPDIR/b" "$BATS_TEST_TMPDIR/flat"
	assert_success
	assert_output $'= 1-net/0001 x: Patch one\n= 2-pci/0001 x: Patch two'
	mv "$BATS_TEST_TMPDIR/b/2-pci" "$BATS_TEST_TMPDIR/b/0-pci"
	run "$HARNESS/checks/series-diff.sh" "$BATS_TEST_TMPDIR/b" "$BATS_TEST_TMPDIR/flat"
	assert_failure
	assert_line 'the two series order their patches differently'
}

@test "series-diff: a removed line that reads like the signature ends nothing" {
	make_series a
	make_series b
	sed -i 's/^+two$/-- \n+two\n+three/' "$BATS_TEST_TMPDIR/b/0002-two.patch"
	run "$HARNESS/checks/series-diff.sh" "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
	assert_success
	assert_line '~ 0002 x: Patch two'
	assert_line '++three'
}

@test "series-diff: a directory without patches is a usage error, not an empty comparison" {
	make_series a
	mkdir "$BATS_TEST_TMPDIR/empty"
	run "$HARNESS/checks/series-diff.sh" "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/empty"
	assert_equal "$status" 2
	assert_output --partial 'usage: series-diff.sh'
}
