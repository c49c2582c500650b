#!/usr/bin/env bats
# Allocation failures (failslab) on the KASAN + lockdep + kmemleak kernel:
# while slab allocations fail at random for one task (through
# /proc/self/make-it-fail: the bats process and everything else allocate as
# usual), writes, reads, the debugfs table, traced writes, and unloading the
# emulator either work or fail cleanly. A write that failed changed
# nothing; the harness fails the guest on any Oops, WARNING
# (panic_on_warn=1), KASAN or lockdep report, and stress-kmemleak.bats,
# which runs after this file, on any leak.
#
# The failing task runs bash builtins only from the moment it asks for
# failures (open, write and read through redirections, printf, mapfile), so
# that the failures land in the syscalls under test, not in an execve().
# kmemleak's own metadata allocations may fail too: it then takes objects
# from its memory pool (CONFIG_DEBUG_KMEMLEAK_MEM_POOL_SIZE) and stays on,
# which stress-kmemleak.bats checks.
#
# Not run: loading the emulator under failing allocations. A failure inside
# PCI enumeration reaches WARN_ON(ret < 0) in pci_device_add() (device_add()
# failed) in drivers/pci/probe.c, the base kernel's, which panics this
# panic_on_warn guest whatever the series does.

FAILSLAB=/sys/kernel/debug/failslab
# One slab allocation in PERCENT fails in a failing task.
PERCENT=${FAILSLAB_PERCENT:-10}
UNLOAD_PERCENT=${FAILSLAB_UNLOAD_PERCENT:-3}
ROUNDS=${FAILSLAB_ROUNDS:-60}

setup() {
	bats_load_library pci-mwi
	[ -d "$FAILSLAB" ] || fail "no $FAILSLAB: this kernel has no CONFIG_FAILSLAB"
	failslab_arm "$PERCENT"
	sim_load
	slot=$(sim_slot accepts)
	file=$(mwi_file "$slot")
}

teardown() {
	echo 0 >"$FAILSLAB/probability"
	sim_unload
}

# Make $1 percent of the slab allocations of the tasks that ask for it
# fail, sleeping ones included, without a stack dump for each.
failslab_arm() {
	echo Y >"$FAILSLAB/task-filter"
	echo N >"$FAILSLAB/ignore-gfp-wait"
	echo 0 >"$FAILSLAB/verbose"
	echo 1 >"$FAILSLAB/interval"
	echo -1 >"$FAILSLAB/times"
	echo "$1" >"$FAILSLAB/probability"
}

# Open file $1 and write $2 and a newline to it in one write(2), with
# allocations failing from the open on. Fails if either failed.
failing_write() {
	(
		echo 1 >/proc/self/make-it-fail
		exec 3>"$1" && printf '%s\n' "$2" >&3
	) 2>/dev/null
}

# Open file $1 and print what reading it gives, with allocations failing
# from the open on; nothing when the open or the first read failed.
failing_read() {
	(
		echo 1 >/proc/self/make-it-fail
		exec 3<"$1" && mapfile -u 3 lines && printf '%s' "${lines[@]}"
	) 2>/dev/null
}

# What a write must leave alone when it fails: COMMAND, the cache line
# size and the policy.
state() {
	printf '%s %s\n' "$(sim_registers "$slot")" "$(mwi_table_field "$slot" policy)"
}

@test "under failing allocations every echo to mwi either takes effect or fails and changes nothing" {
	local i want before ok=0 failed=0
	for ((i = 0; i < ROUNDS; i++)); do
		want=$((1 - $(read_mwi "$slot")))
		before=$(state)
		if failing_write "$file" "$want"; then
			assert_equal "round $i: mwi $(read_mwi "$slot")" "round $i: mwi $want"
			ok=$((ok + 1))
		else
			assert_equal "round $i: after a failed write: $(state)" "round $i: after a failed write: $before"
			failed=$((failed + 1))
		fi
	done
	echo "# writes: $ok took effect, $failed failed" >&3
	assert_equal "some writes failed: $((failed > 0))" "some writes failed: 1"
	assert_equal "some writes took effect: $((ok > 0))" "some writes took effect: 1"
}

@test "under failing allocations cat mwi gives the real state or nothing, never anything else" {
	local i out failed=0
	run write_mwi "$slot" '1\n'
	assert_success
	for ((i = 0; i < ROUNDS; i++)); do
		out=$(failing_read "$file") || true
		case "$out" in
		1) ;;
		"") failed=$((failed + 1)) ;;
		*) fail "round $i: read gave '$out'" ;;
		esac
	done
	echo "# reads: $failed of $ROUNDS failed" >&3
	assert_equal "some reads failed: $((failed > 0))" "some reads failed: 1"
}

@test "under failing allocations the debugfs table is whole or nothing, never a partial table" {
	local i out whole failed=0
	whole=$(cat "$MWI_TABLE")
	for ((i = 0; i < ROUNDS; i++)); do
		out=$(failing_read "$MWI_TABLE") || true
		if [ -z "$out" ]; then
			failed=$((failed + 1))
		else
			assert_equal "round $i: $out" "round $i: $whole"
		fi
	done
	echo "# table reads: $failed of $ROUNDS failed" >&3
	assert_equal "some table reads failed: $((failed > 0))" "some table reads failed: 1"
}

@test "under failing allocations every traced write that took effect left exactly one event" {
	local i ok=0
	tracefs_mount
	[ -d "$MWI_EVENT" ] || fail "no $MWI_EVENT: the stress kernel has tracing"
	mwi_trace_start
	for ((i = 0; i < ROUNDS; i++)); do
		if failing_write "$file" "$((i % 2))"; then
			ok=$((ok + 1))
		fi
	done
	assert_equal "events $(mwi_trace_events | grep -Ec "^$slot requester=$SYSFS_REQUESTER ")" "events $ok"
	mwi_trace_stop
}

# PCI functions outside QEMU's domain 0000: the emulator's.
emulated_functions() {
	local f n=0
	for f in /sys/bus/pci/devices/*; do
		case "${f##*/}" in
		0000:*) ;;
		*) [ -e "$f" ] && n=$((n + 1)) ;;
		esac
	done
	echo "$n"
}

# rmmod is no builtin: its execve() takes failures first (and a failure
# past its point of no return kills it with SIGSEGV), so fewer fail here.
@test "under failing allocations rmmod of the emulator leaves no module and no function behind" {
	local i ran=0
	failslab_arm "$UNLOAD_PERCENT"
	for ((i = 0; i < ROUNDS / 3; i++)); do
		grep -q '^pci_mwi_sim ' /proc/modules || sim_load
		if (echo 1 >/proc/self/make-it-fail && exec rmmod pci_mwi_sim) 2>/dev/null; then
			ran=$((ran + 1))
		fi
		sim_unload
		assert_equal "round $i: emulated functions left: $(emulated_functions)" \
			"round $i: emulated functions left: 0"
	done
	echo "# unloads under failing allocations: $ran of $((ROUNDS / 3))" >&3
	assert_equal "some unloads ran under failing allocations: $((ran > 0))" \
		"some unloads ran under failing allocations: 1"
}
