#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh OUTDIR MACHINE...
#
# Boot each guest in check mode, print its TAP stream, and fail a guest
# that timed out, did not finish, or whose console shows a kernel Oops,
# BUG, WARNING, KASAN or lockdep report or a panic. Ends with the line
# "N passed, N failed" (after a line "N skipped") and exits non-zero on
# any failure.
#
# Before the guests, the host checks the kernel series (series-tests.sh)
# and runs mwictl's own tests (userspace/tests, plain, sanitized, fuzzed).
#
# Environment: as boot.sh, plus KSRC and PATCHDIR (the patched tree and
# kernel-patches/) and TESTS_EXTRA (a directory of *.bats files to run in
# the same guests).
set -eu
here=$(dirname "$0")
. "$here/lib.sh"

outdir=$1
shift
passed=0 failed=0 skipped=0

# Console lines that mean the kernel is broken, whatever the tests said.
KERNEL_ERRORS='Oops|BUG:|WARNING:|KASAN|lockdep|possible recursive locking|circular locking|Kernel panic|general protection fault|Call Trace:'

extra_cpio() {
	local dir=$1 root
	root=$(mktemp -d)
	mkdir -p "$root/tests-extra"
	cp "$dir"/*.bats "$root/tests-extra/" 2>/dev/null ||
		die "TESTS_EXTRA=$dir has no *.bats files"
	# Without ".": its mode (0700) would become that of the guest's /.
	(cd "$root" && find . -mindepth 1 -print0 | cpio --null -o -H newc --quiet) >"$outdir/extra.cpio"
	rm -rf "$root"
	printf '%s\n' "$outdir/extra.cpio"
}

# One failure the guest could not report itself, as a TAP line.
guest_failure() {
	printf 'not ok - %s: %s\n' "$1" "$2"
	failed=$((failed + 1))
}

# Print a TAP stream with a heading and add it to the totals. Fails when
# the stream's plan is missing or does not match the tests it reported.
count_tap() {
	local heading=$1 file=$2 line planned=0 seen=0
	printf '# %s\n' "$heading"
	while IFS= read -r line; do
		line=${line%$'\r'}
		case "$line" in
		"1.."*) planned=${line#1..} ;;
		"ok "*"# skip"*) skipped=$((skipped + 1)) seen=$((seen + 1)) ;;
		"ok "*) passed=$((passed + 1)) seen=$((seen + 1)) ;;
		"not ok "*) failed=$((failed + 1)) seen=$((seen + 1)) ;;
		esac
		case "$line" in "# pci-mwi-"*) ;; *) printf '%s\n' "$line" ;; esac
	done <"$file"
	[ "$planned" != 0 ] && [ "$seen" = "$planned" ]
}

run_series_tests() {
	"$here/series-tests.sh" "$KSRC" "$PATCHDIR" >"$outdir/series.tap" 2>&1 || true
	count_tap "kernel series (host)" "$outdir/series.tap" ||
		guest_failure "kernel series" "series-tests.sh did not run every test"
}

# mwictl's host tests against fake sysfs trees, plain and under ASan+UBSan,
# a clang build, then a short run of its fuzz target.
run_userspace_tests() {
	local top=$here/.. rc=0
	make -s -C "$top/userspace" check >"$outdir/mwictl.tap" 2>&1 || true
	count_tap "mwictl (host)" "$outdir/mwictl.tap" ||
		guest_failure "mwictl" "host tests did not run to the end"
	make -s -C "$top/userspace" check-sanitizers >"$outdir/mwictl-san.tap" 2>&1 || true
	count_tap "mwictl under ASan and UBSan (host)" "$outdir/mwictl-san.tap" ||
		guest_failure "mwictl" "sanitizer tests did not run to the end"
	if make -s -C "$top/userspace" check-clang >"$outdir/mwictl-clang.log" 2>&1; then
		printf 'ok - mwictl builds with clang -Wall -Wextra -Werror\n'
		passed=$((passed + 1))
	else
		guest_failure "mwictl clang" "build failed (see $outdir/mwictl-clang.log)"
	fi
	make -s -C "$top/userspace" fuzz FUZZ_SECONDS="${FUZZ_SECONDS:-10}" \
		>"$outdir/mwictl-fuzz.log" 2>&1 || rc=1
	if [ "$rc" = 0 ]; then
		printf 'ok - the mwictl fuzz target runs %s s without a crash\n' "${FUZZ_SECONDS:-10}"
		passed=$((passed + 1))
	else
		guest_failure "mwictl fuzz" "crash or build failure (see $outdir/mwictl-fuzz.log)"
	fi
}

# Boot every guest, at most as many at once as there are CPUs.
boot_guests() {
	local extra=$1 machine running=0
	shift
	for machine in "$@"; do
		if [ "$running" -ge "$(nproc)" ]; then
			wait -n || true
			running=$((running - 1))
		fi
		say "booting the $machine guest (${ACCEL:-tcg})"
		"$here/boot.sh" "$machine" check "$outdir" "$extra" &
		running=$((running + 1))
	done
	wait
}

report_guest() {
	local machine=$1 results console bad status complete
	local failed_before=$failed
	results="$outdir/$machine-results.log"
	console="$outdir/$machine-console.log"
	complete=yes
	count_tap "guest $machine" "$results" || complete=no
	status=$(sed -n 's/^# pci-mwi-exit //p' "$results")
	if grep -q '^# pci-mwi-timeout' "$results"; then
		guest_failure "$machine" "guest did not finish within $(sed -n 's/^# pci-mwi-timeout //p' "$results") s (console: $console)"
	elif [ -z "$status" ]; then
		guest_failure "$machine" "guest stopped before the tests finished (console: $console)"
	elif [ "$complete" = no ]; then
		guest_failure "$machine" "bats ran no test or fewer than it planned"
	elif [ "$status" != 0 ] && [ "$failed" = "$failed_before" ]; then
		guest_failure "$machine" "bats exited $status without reporting a failed test"
	fi
	bad=$(grep -E "$KERNEL_ERRORS" "$console" | head -5 || true)
	if [ -n "$bad" ]; then
		guest_failure "$machine" "kernel console reports errors (see $console)"
		printf '%s\n' "$bad" | sed 's/^/#   /'
	fi
}

extra=""
if [ -n "${TESTS_EXTRA:-}" ]; then
	extra=$(extra_cpio "$TESTS_EXTRA")
fi
mkdir -p "$outdir"
run_series_tests
run_userspace_tests
boot_guests "$extra" "$@"
for machine in "$@"; do
	report_guest "$machine"
done
# Skips (a test for another guest's devices) are not passes: their count
# goes on its own line, and the last line is "N passed, N failed" alone.
printf '%d skipped\n%d passed, %d failed\n' "$skipped" "$passed" "$failed" |
	tee "$outdir/summary"
[ "$failed" = 0 ]
