#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guests.sh OUTDIR MACHINE...
#
# Boot each guest in check mode, print its TAP stream, and fail a guest
# that did not boot, timed out, did not finish, left no readable results
# or console, or whose console shows a kernel Oops, BUG, WARNING, KASAN or
# lockdep report or a panic. Whatever happens, ends with the line
# "N passed, N failed" (after a line "N skipped"), leaves the counts in
# OUTDIR/counts (tap.sh) and exits non-zero on any failure: a harness error
# is one more named "not ok" line. The host checks are other scripts
# (tree-checks.sh, host-checks.sh; check-trees.sh runs them beside this).
#
# Guests start longest first, by the length each took last time (with two
# CPUs, the longest one is the critical path). A guest whose kernel,
# initramfs, extra tests and harness files (all of qemu/ but its
# self-tests and mutants, as git sees them: git_key in lib.sh) are
# identical to its last green run is not booted again:
# its recorded results are shown and counted, marked "(cached)". FORCE=1,
# or CI=true, boots every guest.
#
# Environment: as boot.sh, plus TESTS_EXTRA (a directory of *.bats
# files to run in the guests whose manifest in qemu/guests/ says
# extra=yes: pc, q35, nodebugfs; ONLY_EXTRA=1 runs only those, and boots
# no other guest), TEST_FILES and TEST_FILTER (make test: the files, and
# the tests of them whose names match), FORCE and CI. Each guest runs the
# test list of its manifest (guest_tests in lib.sh), which boot.sh writes
# into its initramfs as /test-files.
set -eu
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/tap.sh"

outdir=$1
shift
tap_start "$outdir" guests.sh

# Console lines that mean the kernel is broken, whatever the tests said.
KERNEL_ERRORS='Oops|BUG:|WARNING:|KASAN|lockdep|possible recursive locking|circular locking|Kernel panic|general protection fault|Call Trace:'

# Guests in the order they are started when no length has been measured
# yet: the longest first, as measured on a 2-CPU machine.
LONGEST_FIRST="sim pc q35 nodebugfs stress field"

# The console $1 without the warning blocks that qemu/known-warnings
# names; with $2 = count, only how many blocks were dropped.
known_warnings_dropped() {
	awk -v mode="${2:-text}" -v list="$here/known-warnings" '
	BEGIN {
		while ((getline line < list) > 0) {
			if (line ~ /^#/ || line == "")
				continue
			n = split(line, f, "\t")
			entries++
			nre[entries] = n - 1
			for (i = 2; i <= n; i++)
				re[entries, i - 1] = f[i]
		}
	}
	function known(   e, i, l, hit) {
		for (e = 1; e <= entries; e++) {
			hit = 1
			for (i = 1; i <= nre[e] && hit; i++) {
				hit = 0
				for (l = 1; l <= nb; l++)
					if (block[l] ~ re[e, i]) { hit = 1; break }
			}
			if (hit)
				return 1
		}
		return 0
	}
	/-+\[ cut here \]-+/ { inblock = 1; nb = 0 }
	inblock { block[++nb] = $0
		if ($0 ~ /---\[ end trace/) {
			inblock = 0
			if (known()) { dropped++; next }
			if (mode == "text") for (l = 1; l <= nb; l++) print block[l]
		}
		next
	}
	mode == "text" { print }
	END {
		if (inblock && mode == "text") for (l = 1; l <= nb; l++) print block[l]
		if (mode == "count") print dropped + 0
	}' "$1"
}

extra_cpio() {
	local dir=$1 root
	root=$(mktemp -d)
	mkdir -p "$root/tests-extra"
	if ! cp "$dir"/*.bats "$root/tests-extra/" 2>/dev/null; then
		rm -rf "$root"
		return 1
	fi
	# Without ".": its mode (0700) would become that of the guest's /.
	reproducible_cpio "$root" -mindepth 1 >"$outdir/extra.cpio"
	rm -rf "$root"
	printf '%s\n' "$outdir/extra.cpio"
}

# $outdir/select.cpio: /test-files, /test-filter and TESTS_EXTRA's files,
# one archive (as extra_cpio's), for guest $1; its manifest's last file
# (sim-lockdown.bats) still runs last. A name that is no test file is a
# harness failure, and there is no cpio.
select_cpio() {
	local root f bad=0 names last_file=""
	root=$(mktemp -d)
	# shellcheck disable=SC2154 # set by load_guest, from the manifest
	[ -z "$1" ] || last_file=$(load_guest "$1" && echo "$last") || true
	read -ra names <<<"$TEST_FILES"
	if [ ${#names[@]} = 0 ]; then
		harness_failure TEST_FILES "no file named"
		bad=1
	fi
	if [ -n "${TESTS_EXTRA:-}" ]; then
		mkdir -p "$root/tests-extra"
		cp "$TESTS_EXTRA"/*.bats "$root/tests-extra/" 2>/dev/null || true
	fi
	for f in "${names[@]}"; do
		if [ "$f" = "${f%.bats}" ] || [ "$f" != "${f##*/}" ] || [ "${f#.}" != "$f" ]; then
			harness_failure TEST_FILES "$f is not the name of a .bats file (no directory)"
			bad=1
			continue
		fi
		if [ -f "$here/../tests-bats/$f" ] || { [ -n "${TESTS_EXTRA:-}" ] && [ -f "$TESTS_EXTRA/$f" ]; }; then
			[ "$f" = "$last_file" ] || printf '%s\n' "$f" >>"$root/test-files"
		else
			harness_failure TEST_FILES "no test file $f in tests-bats/${TESTS_EXTRA:+ or $TESTS_EXTRA}"
			bad=1
		fi
	done
	case " ${names[*]} " in
	*" $last_file "*) [ -z "$last_file" ] || printf '%s\n' "$last_file" >>"$root/test-files" ;;
	esac
	[ -z "${TEST_FILTER:-}" ] || printf '%s\n' "$TEST_FILTER" >"$root/test-filter"
	[ "$bad" = 1 ] || reproducible_cpio "$root" -mindepth 1 >"$outdir/select.cpio"
	rm -rf "$root"
	return "$bad"
}

# What a guest's results depend on, hashed: its kernel and initramfs
# (which hold the tests and init), the extra tests or the make test
# selection, and every file of the harness and of tests-bats/ as git has
# them (harness_key), known-warnings and the manifests among them.
guest_key() {
	local machine=$1 kernel initrd
	kernel=$(guest_kernel "$machine")
	initrd=$(guest_initrd "$machine")
	{
		printf '%s %s %s %s %s %s\n' "$machine" "$(guest_accel "$kernel")" "${DEBUG_KERNEL:-0}" \
			"${TIMEOUT:-}" "${TIMEOUT_DEBUG:-}" "${ONLY_EXTRA:-0}"
		harness_key tests-bats
		cat "$kernel" "$initrd" ${extra:+"$extra"}
	} 2>/dev/null | sha256sum | cut -d' ' -f1
}

# True when $1's last green run had the same key: its logs are put back.
cached_green() {
	local machine=$1 key=$2 dir
	dir=$outdir/cache/$machine
	use_cache || return 1
	[ "$(cat "$dir/key" 2>/dev/null)" = "$key" ] || return 1
	cp "$dir/results.log" "$outdir/$machine-results.log" &&
		cp "$dir/console.log" "$outdir/$machine-console.log"
}

remember_green() {
	local machine=$1 key=$2 dir
	dir=$outdir/cache/$machine
	mkdir -p "$dir"
	rm -f "$dir/key"
	cp "$outdir/$machine-results.log" "$dir/results.log"
	cp "$outdir/$machine-console.log" "$dir/console.log"
	printf '%s\n' "$key" >"$dir/key"
}

# The machines in the order to start them: by the length each took in its
# last run ($outdir/lengths, "MACHINE SECONDS"), longest first; a machine
# not measured yet counts by its place in LONGEST_FIRST, after those that
# were.
start_order() {
	local m rank len
	for m in "$@"; do
		len=$(awk -v m="$m" '$1 == m { l = $2 } END { print l + 0 }' "$outdir/lengths" 2>/dev/null || echo 0)
		rank=$(printf '%s\n' $LONGEST_FIRST | grep -nx "$m" | cut -d: -f1 || true)
		printf '%s %s %s\n' "$len" "$((100 - ${rank:-99}))" "$m"
	done | sort -k1,1nr -k2,2nr | awk '{ print $3 }'
}

remember_length() {
	local machine=$1 seconds=$2
	[ -n "$seconds" ] || return 0
	{
		grep -v "^$machine " "$outdir/lengths" 2>/dev/null || true
		printf '%s %s\n' "$machine" "$seconds"
	} >"$outdir/lengths.tmp" && mv "$outdir/lengths.tmp" "$outdir/lengths"
}

# Boot every guest not answered by the cache, at most as many at once as
# there are CPUs. A guest that cannot be started leaves no results file.
boot_guests() {
	local machine running=0 accel
	for machine in $(start_order "$@"); do
		if [ -n "${cached[$machine]:-}" ]; then
			continue
		fi
		if [ "$running" -ge "$(nproc)" ]; then
			wait -n || true
			running=$((running - 1))
		fi
		accel=$(guest_accel "$(guest_kernel "$machine")")
		say "booting the $machine guest ($accel)"
		ACCEL=$accel "$here/boot.sh" "$machine" check "$outdir" "$extra" &
		running=$((running + 1))
	done
	wait || true
}

report_guest() {
	local machine=$1 key=$2 results console bad status complete heading seconds
	# shellcheck disable=SC2154 # failed: tap.sh's count, which shellcheck does not follow
	local failed_before=$failed
	results="$outdir/$machine-results.log"
	console="$outdir/$machine-console.log"
	heading="guest $machine"
	seconds=$(sed -n 's/^# pci-mwi-seconds //p' "$results" 2>/dev/null | tr -d '\r' || true)
	[ -z "$seconds" ] || heading="$heading ($seconds s)"
	[ -n "${cached[$machine]:-}" ] || remember_length "$machine" "$seconds"
	[ -n "${cached[$machine]:-}" ] && heading="$heading (cached: identical to its last green run)"
	if [ ! -s "$results" ]; then
		printf '# %s\n' "$heading"
		harness_failure "$machine" "guest did not boot: no results (see $outdir/$machine-qemu.log)"
		sed 's/^/#   /' "$outdir/$machine-qemu.log" 2>/dev/null | head -5 || true
		return 0
	fi
	complete=yes
	count_tap "$heading" "$results" || complete=no
	status=$(sed -n 's/^# pci-mwi-exit //p' "$results" 2>/dev/null | tr -d '\r' || true)
	if grep -q '^# pci-mwi-timeout' "$results"; then
		harness_failure "$machine" "guest did not finish within $(sed -n 's/^# pci-mwi-timeout //p' "$results") s (console: $console)"
	elif [ -z "$status" ]; then
		harness_failure "$machine" "guest stopped before the tests finished (console: $console)"
	fi
	if grep -q '^# pci-mwi-timeout' "$results" || [ -z "$status" ]; then
		# CI keeps only this output: the console's end says where it
		# stopped, and qemu/init's "pci-mwi:" lines what still ran.
		{
			grep '^pci-mwi: ' "$console"
			tail -n 10 "$console"
		} 2>/dev/null | tr -d '\r' | sed 's/^/#   /' || true
	elif [ "$complete" = no ]; then
		if [ -n "${TEST_FILTER:-}" ] && tr -d '\r' <"$results" | grep -qx '1\.\.0'; then
			harness_failure "$machine" "no test of $TEST_FILES has a name matching '$TEST_FILTER'"
		else
			harness_failure "$machine" "bats ran no test or fewer than it planned"
		fi
	elif [ "$status" != 0 ] && [ "$failed" = "$failed_before" ]; then
		harness_failure "$machine" "bats exited $status without reporting a failed test"
	fi
	if [ ! -r "$console" ]; then
		harness_failure "$machine" "kernel console log missing or unreadable ($console)"
	else
		bad=$(known_warnings_dropped "$console" | grep -E "$KERNEL_ERRORS" | head -5 || true)
		known=$(known_warnings_dropped "$console" count)
		[ "$known" = 0 ] || printf '# %s: %s known upstream warning(s) dropped (qemu/known-warnings)\n' \
			"$machine" "$known"
		if [ -n "$bad" ]; then
			harness_failure "$machine" "kernel console reports errors (see $console)"
			printf '%s\n' "$bad" | sed 's/^/#   /'
		fi
	fi
	if [ "$failed" = "$failed_before" ] && [ -z "${cached[$machine]:-}" ]; then
		remember_green "$machine" "$key" || true
	fi
}

extra=""
if [ -n "${TESTS_EXTRA:-}" ]; then
	extra=$(extra_cpio "$TESTS_EXTRA") ||
		harness_failure TESTS_EXTRA "$TESTS_EXTRA has no *.bats files"
fi
# make test: the guests run only the files of TEST_FILES (names in
# tests-bats/ or TESTS_EXTRA), and of those only the tests whose names
# match TEST_FILTER (bats -f), through /test-files and /test-filter.
if [ -n "${TEST_FILES:-}" ]; then
	if select_cpio "${1:-}"; then
		extra=$outdir/select.cpio
	else
		set --
	fi
fi
# "pc, q35 and nodebugfs": the guests that run TESTS_EXTRA (extra=yes).
extra_guests() {
	local g list=()
	# shellcheck disable=SC2046 # guest names are single words
	for g in $(start_order $(guest_names)); do
		! runs_extra "$g" || list+=("$g")
	done
	case ${#list[@]} in
	0) echo "no guest" ;;
	1) echo "${list[0]}" ;;
	*) echo "$(IFS=,; echo "${list[*]:0:${#list[@]}-1}" | sed 's/,/, /g') and ${list[-1]}" ;;
	esac
}

# TESTS_EXTRA runs on the guests whose manifest says extra=yes: with
# ONLY_EXTRA=1 the others would run nothing, so they are not booted.
if [ "${ONLY_EXTRA:-0}" = 1 ]; then
	[ -n "${TESTS_EXTRA:-}" ] ||
		harness_failure ONLY_EXTRA "ONLY_EXTRA=1 runs only TESTS_EXTRA, and TESTS_EXTRA is not set"
	extra_machines=()
	for machine in "$@"; do
		if runs_extra "$machine"; then
			extra_machines+=("$machine")
		else
			printf '# guest %s: not booted: ONLY_EXTRA=1, and TESTS_EXTRA runs on %s\n' "$machine" "$(extra_guests)"
		fi
	done
	[ $# = 0 ] || [ ${#extra_machines[@]} != 0 ] ||
		harness_failure ONLY_EXTRA "none of the guests $* runs TESTS_EXTRA ($(extra_guests) do)"
	set -- "${extra_machines[@]}"
fi
declare -A cached=() keys=()
for machine in "$@"; do
	keys[$machine]=$(guest_key "$machine")
	if cached_green "$machine" "${keys[$machine]}"; then
		cached[$machine]=yes
	else
		rm -f "$outdir/$machine-results.log" "$outdir/$machine-console.log"
	fi
done
boot_guests "$@"
for machine in "$@"; do
	report_guest "$machine" "${keys[$machine]}"
done
# Skips (a test for another guest's devices) are not passes: their count
# goes on its own line, and the last line is "N passed, N failed" alone.
tap_finish
