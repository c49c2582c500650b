#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh OUTDIR MACHINE...
#
# Boot each guest in check mode, print its TAP stream, and fail a guest
# that did not boot, timed out, did not finish, left no readable results
# or console, or whose console shows a kernel Oops, BUG, WARNING, KASAN or
# lockdep report or a panic. Whatever happens, ends with the line
# "N passed, N failed" (after a line "N skipped") and exits non-zero on
# any failure: a harness error is one more named "not ok" line.
#
# While the guests run, the host checks the kernel series (series-tests.sh),
# runs mwictl's own tests (userspace/tests, plain, sanitized, fuzzed), the
# harness's own tests (qemu/tests) and their mutants, and, with KOBJ_W1 set, compiles the files
# the series touches with W=1 for x86_64 and, with Debian's cross
# compilers, for each architecture of W1_CROSS (default "powerpc sh s390")
# (w1-check.sh), and with KOBJ and KOBJ_NODEBUGFS set checks that the
# series leaves struct pci_dev as it was (pcidev-size.sh). HOST_CHECKS=0
# skips all that; HOST_CHECKS=tree runs only the checks of the kernel tree
# (series, W=1, and struct pci_dev where KOBJ_NODEBUGFS is set: the Makefile
# sets it only for a tree with a nodebugfs guest), for a second tree
# (check-trees.sh).
#
# Guests start longest first, by the length each took last time (with two
# CPUs, the longest one is the critical path). A guest whose kernel,
# initramfs, extra tests and harness files (all of qemu/ but its
# self-tests and mutants, as git sees them: git_key in lib.sh) are
# identical to its last green run is not booted again:
# its recorded results are shown and counted, marked "(cached)". FORCE=1,
# or CI=true, boots every guest.
#
# Environment: as boot.sh, plus KSRC and PATCHDIR (the patched tree and
# its series, kernel-patches/KVER/), TESTS_EXTRA (a directory of *.bats
# files to run in the guests whose manifest in qemu/guests/ says
# extra=yes: pc, q35, nodebugfs; ONLY_EXTRA=1 runs only those, and boots
# no other guest), HOST_CHECKS, FORCE and CI. Each guest runs the test
# list of its manifest (guest_tests in lib.sh), which boot.sh writes into
# its initramfs as /test-files.
set -eu
here=$(dirname "$0")
. "$here/lib.sh"

outdir=$1
shift
passed=0 failed=0 skipped=0
finished=no

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

# One failure the guest (or the harness) could not report itself.
harness_failure() {
	printf 'not ok - %s: %s\n' "$1" "$2"
	failed=$((failed + 1))
}

summary() {
	printf '%d skipped\n%d passed, %d failed\n' "$skipped" "$passed" "$failed"
}

# Whatever stops this script, the last line is the summary: an unexpected
# exit is itself a failure, named with the line it happened at.
on_exit() {
	local rc=$?
	[ "$finished" = yes ] && return
	harness_failure harness "check.sh stopped with status $rc before the end (line ${last_line:-?})"
	mkdir -p "$outdir" 2>/dev/null || true
	summary | tee "$outdir/summary" 2>/dev/null || summary
	exit 1
}
trap 'last_line=$LINENO' DEBUG
trap on_exit EXIT

# Print a TAP stream with a heading and add it to the totals. Fails when
# the file is missing or unreadable, or its plan is missing or does not
# match the tests it reported.
count_tap() {
	local heading=$1 file=$2 line planned=0 seen=0
	printf '# %s\n' "$heading"
	[ -f "$file" ] && [ -r "$file" ] || return 1
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%$'\r'}
		case "$line" in
		"1.."*) planned=${line#1..} ;;
		"ok "*"# skip"*) skipped=$((skipped + 1)) seen=$((seen + 1)) ;;
		"ok "*) passed=$((passed + 1)) seen=$((seen + 1)) ;;
		"not ok "*) failed=$((failed + 1)) seen=$((seen + 1)) ;;
		esac
		case "$line" in "# pci-mwi-"*) ;; *) printf '%s\n' "$line" ;; esac
	done <"$file"
	case "$planned" in '' | *[!0-9]*) return 1 ;; esac
	[ "$planned" != 0 ] && [ "$seen" = "$planned" ]
}

# Host checks are cached like guests: $key (a hash of everything the check
# reads) equal to that of its last green run means its recorded output is
# shown again instead of running it.
host_cached() {
	local name=$1 key=$2
	use_cache && [ -n "$key" ] &&
		[ "$(cat "$outdir/cache/host-$name.key" 2>/dev/null)" = "$key" ] &&
		cp "$outdir/cache/host-$name.out" "$outdir/$name.out"
}

host_remember() {
	local name=$1 key=$2
	mkdir -p "$outdir/cache"
	cp "$outdir/$name.out" "$outdir/cache/host-$name.out"
	printf '%s\n' "$key" >"$outdir/cache/host-$name.key"
}

# A host check whose TAP output goes to $outdir/$1.out.
host_tap() {
	local name=$1 heading=$2 key=$3 failed_before=$failed cached=""
	shift 3
	if host_cached "$name" "$key"; then
		cached=" (cached: inputs identical to its last green run)"
	else
		"$@" >"$outdir/$name.out" 2>&1 || true
	fi
	count_tap "$heading$cached" "$outdir/$name.out" ||
		harness_failure "$name" "did not run every test (see $outdir/$name.out)"
	[ "$failed" = "$failed_before" ] && [ -z "$cached" ] && host_remember "$name" "$key"
	return 0
}

# A host check that passes when its command does; output to $outdir/$1.out.
host_ok() {
	local name=$1 text=$2 key=$3
	shift 3
	if host_cached "$name" "$key"; then
		printf 'ok - %s (cached)\n' "$text"
		passed=$((passed + 1))
	elif "$@" >"$outdir/$name.out" 2>&1; then
		printf 'ok - %s\n' "$text"
		passed=$((passed + 1))
		host_remember "$name" "$key"
	else
		harness_failure "$name" "failed: $text (see $outdir/$name.out)"
	fi
}

# A hash of the files named (outside the project: the host's and the
# kernel tree's), and of the output of the command after "--".
inputs_key() {
	local f
	{
		while [ $# -gt 0 ]; do
			f=$1
			shift
			if [ "$f" = -- ]; then
				"$@" 2>&1 || true
				break
			fi
			cat "$f" 2>/dev/null || printf 'missing %s\n' "$f"
		done
	} | sha256sum | cut -d' ' -f1
}

# The harness's own files, qemu/ but its self-tests and mutants (which no
# guest or host check reads), and the pathspecs $@, as git_key hashes them.
harness_key() {
	git_key qemu ':(exclude)qemu/tests' ':(exclude)qemu/mutants' "$@"
}

# The patched tree's content: its commit's tree (not the commit: a patch's
# message is not compiled) and any change not committed.
ksrc_key() {
	{ git -C "$KSRC" rev-parse "HEAD^{tree}"; git -C "$KSRC" diff HEAD; } 2>/dev/null | sha256sum | cut -d' ' -f1
}

# The host checks of the kernel tree KSRC: its series (checkpatch, Cc:,
# the same patches as the other tree's), W=1 and struct pci_dev.
run_tree_tests() {
	host_tap series "kernel series (host)" \
		"$(harness_key kernel-patches)$(inputs_key "$KSRC/scripts/checkpatch.pl" \
			"$KSRC/scripts/get_maintainer.pl" "$KSRC/MAINTAINERS")" \
		"$here/series-tests.sh" "$KSRC" "$PATCHDIR"
	if [ -n "${KOBJ_W1:-}" ]; then
		host_tap w1 "files the series touches, compiled with W=1 (host)" \
			"$(ksrc_key)$(harness_key)" \
			"$here/w1-check.sh" "$KSRC" "$KOBJ_W1" pristine
		for arch in ${W1_CROSS-powerpc sh s390}; do
			host_tap "w1-$arch" "files the series touches, compiled with W=1 for $arch (host)" \
				"$(ksrc_key)$(harness_key)$arch" \
				"$here/w1-check.sh" "$KSRC" "$KOBJ_W1-$arch" pristine "$arch"
		done
	fi
	if [ -n "${KOBJ:-}" ] && [ -n "${KOBJ_NODEBUGFS:-}" ]; then
		host_ok pcidev-size "the series leaves struct pci_dev as it was, with and without CONFIG_DEBUG_FS" \
			"$(ksrc_key)$(harness_key)$(inputs_key "$KOBJ/vmlinux" "$KOBJ_NODEBUGFS/vmlinux")" \
			"$here/pcidev-size.sh" "$KSRC" "$KOBJ" "$KOBJ_NODEBUGFS"
	fi
}

# The host checks that do not depend on the kernel tree: mwictl's and the
# harness's own tests.
run_tree_independent_tests() {
	local top=$here/.. us
	# names depend on the host's pci.ids, hwdb and libpci
	# package.bats and the .deb also ship the README and the admin guide
	us=$(git_key userspace README.md Documentation/admin-guide.md)
	[ -z "$us" ] || us=$us$(inputs_key /usr/share/misc/pci.ids /usr/lib/udev/hwdb.bin \
		/etc/udev/hwdb.bin -- dpkg-query -W libpci3 libpci-dev)
	host_tap mwictl "mwictl (host)" "$us" make -s -C "$top/userspace" check
	host_tap mwictl-san "mwictl under ASan and UBSan (host)" "$us" \
		make -s -C "$top/userspace" check-sanitizers
	host_ok mwictl-mutants "mwictl's own tests kill each mutant of userspace/mutants/" "$us" \
		make -s -C "$top/userspace" check-mutants
	host_ok mwictl-clang "mwictl builds with clang -Wall -Wextra -Werror" "$us" \
		make -s -C "$top/userspace" check-clang
	host_ok mwictl-deb "mwictl's Debian package builds and lintian finds no error or warning" \
		"$us" make -s -C "$top/userspace" deb DEBDIR="$outdir/deb"
	host_ok mwictl-fuzz "the mwictl fuzz target runs ${FUZZ_SECONDS:-10} s without a crash" \
		"$us${FUZZ_SECONDS:-10}" make -s -C "$top/userspace" fuzz FUZZ_SECONDS="${FUZZ_SECONDS:-10}"
	host_ok shellcheck "every shell script and bats file is clean at shellcheck's warning level" \
		"$(git_key .)$(shellcheck --version 2>&1 | sha256sum)" \
		"$here/shellcheck.sh"
	# harness.bats reads the manifests' lists of tests-bats/, the series
	# and the real pc guest's kernel; the mutants run it again
	local hk
	hk=$(git_key qemu kernel-patches tests-bats)$(inputs_key "$KERNEL" "$INITRD")
	host_tap harness "the harness's own paths (host)" "$hk" bats --tap "$here/tests"
	host_ok harness-mutants "the harness's own tests kill each mutant of qemu/tests/mutants/" \
		"$hk" "$here/tests/mutants.sh"
}

run_host_tests() {
	run_tree_tests
	[ "${HOST_CHECKS:-1}" = tree ] || run_tree_independent_tests
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
# them (harness_key), known-warnings and lib.sh's timeouts among them.
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

# Results are taken from the cache only in a git checkout (git_key).
use_cache() {
	[ "${FORCE:-0}" != 1 ] && [ "${CI:-}" != true ] &&
		git -C "$here/.." rev-parse --is-inside-work-tree >/dev/null 2>&1
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

mkdir -p "$outdir"
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
# The guests boot while the host checks run: the longest guest is the
# critical path, and most host checks keep only one CPU busy.
boot_guests "$@" &
guests=$!
[ "${HOST_CHECKS:-1}" = 0 ] || run_host_tests
wait "$guests" || true
for machine in "$@"; do
	report_guest "$machine" "${keys[$machine]}"
done
# Skips (a test for another guest's devices) are not passes: their count
# goes on its own line, and the last line is "N passed, N failed" alone.
finished=yes
summary | tee "$outdir/summary"
# The same counts as data, for check-trees.sh: "SKIPPED PASSED FAILED".
printf '%d %d %d\n' "$skipped" "$passed" "$failed" >"$outdir/counts"
[ "$failed" = 0 ]
