# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The TAP and summary library of the check scripts (guests.sh,
# tree-checks.sh, host-checks.sh). Sourced, after lib.sh, never run.
#
# tap_start OUTDIR NAME creates OUTDIR and starts the counts; every result line the script
# prints is TAP ("ok ...", "not ok ...", "ok ... # skip ..."), and
# tap_finish ends with "N skipped", then "N passed, N failed" as the last
# line, writes the same counts as data to OUTDIR/counts ("SKIPPED PASSED
# FAILED", for check-trees.sh) and fails on any failure. A script that
# stops before tap_finish still ends that way, with one more named
# failure.

passed=0 failed=0 skipped=0
tap_name="" tap_dir="" tap_done=no

# One failure that no test could report itself.
harness_failure() {
	printf 'not ok - %s: %s\n' "$1" "$2"
	failed=$((failed + 1))
}

tap_summary() {
	printf '%d skipped\n%d passed, %d failed\n' "$skipped" "$passed" "$failed"
}

tap_write() {
	mkdir -p "$tap_dir" 2>/dev/null || true
	tap_summary | tee "$tap_dir/summary" 2>/dev/null || tap_summary
	{ printf '%d %d %d\n' "$skipped" "$passed" "$failed" >"$tap_dir/counts"; } 2>/dev/null || true
}

tap_on_exit() {
	local rc=$?
	[ "$tap_done" = yes ] && return
	harness_failure harness "$tap_name stopped with status $rc before the end (line ${tap_line:-?})"
	tap_write
	exit 1
}

tap_start() {
	tap_dir=$1 tap_name=$2
	trap 'tap_line=$LINENO' DEBUG
	trap tap_on_exit EXIT
	mkdir -p "$tap_dir"
	rm -f "$tap_dir/counts" "$tap_dir/summary"
}

tap_finish() {
	tap_done=yes
	tap_write
	[ "$failed" = 0 ]
}

# Print a TAP stream with a heading and add it to the counts. Fails when
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

# Results are taken from a cache only in a git checkout (git_key), and
# never with FORCE=1 or CI=true.
use_cache() {
	[ "${FORCE:-0}" != 1 ] && [ "${CI:-}" != true ] &&
		git -C "$(dirname "${BASH_SOURCE[0]}")/.." rev-parse --is-inside-work-tree >/dev/null 2>&1
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
	git_key qemu ':(exclude)qemu/tests' ':(exclude)qemu/tools/mutants' "$@"
}

# Host checks are cached like guests: $key (a hash of everything the check
# reads) equal to that of its last green run means its recorded output is
# shown again instead of running it.
host_cached() {
	local name=$1 key=$2
	use_cache && [ -n "$key" ] &&
		[ "$(cat "$tap_dir/cache/host-$name.key" 2>/dev/null)" = "$key" ] &&
		cp "$tap_dir/cache/host-$name.out" "$tap_dir/$name.out"
}

host_remember() {
	local name=$1 key=$2
	mkdir -p "$tap_dir/cache"
	cp "$tap_dir/$name.out" "$tap_dir/cache/host-$name.out"
	printf '%s\n' "$key" >"$tap_dir/cache/host-$name.key"
}

# host_tap NAME HEADING KEY COMMAND...: a host check whose TAP output goes
# to OUTDIR/NAME.out.
host_tap() {
	local name=$1 heading=$2 key=$3 failed_before=$failed cached=""
	shift 3
	if host_cached "$name" "$key"; then
		cached=" (cached: inputs identical to its last green run)"
	else
		"$@" >"$tap_dir/$name.out" 2>&1 || true
	fi
	count_tap "$heading$cached" "$tap_dir/$name.out" ||
		harness_failure "$name" "did not run every test (see $tap_dir/$name.out)"
	[ "$failed" = "$failed_before" ] && [ -z "$cached" ] && host_remember "$name" "$key"
	return 0
}

# host_ok NAME TEXT KEY COMMAND...: a host check that passes when its
# command does; output to OUTDIR/NAME.out.
host_ok() {
	local name=$1 text=$2 key=$3
	shift 3
	if host_cached "$name" "$key"; then
		printf 'ok - %s (cached)\n' "$text"
		passed=$((passed + 1))
	elif "$@" >"$tap_dir/$name.out" 2>&1; then
		printf 'ok - %s\n' "$text"
		passed=$((passed + 1))
		host_remember "$name" "$key"
	else
		harness_failure "$name" "failed: $text (see $tap_dir/$name.out)"
	fi
}
