#!/usr/bin/env bats
# Concurrent writers, hot removal and module unload against one emulated
# function. The writers are bounded by time (STRESS_SECONDS, default 15),
# not by count, so that the file takes as long on a loaded or slow machine
# as on an idle one; the harness fails the run on any Oops, WARNING,
# KASAN or lockdep report (the "stress" guest runs this file on the
# KASAN + lockdep kernel with panic_on_warn=1).

setup() {
	bats_load_library pci-mwi
	sim_load
	slot=$(sim_slot accepts)
	# Bits besides MWI that must survive everything: memory, master,
	# parity, SERR.
	setpci -s "$slot" COMMAND=0146:0146
	STOP=$BATS_TEST_TMPDIR/stop
}

teardown() {
	touch "$STOP"
	wait || true
	sim_unload
}

# Toggle MWI on slot $1 for $2 seconds; failures (device removed) are
# tolerated. Prints the number of writes.
writer() {
	local i=0 f="$SYSFS_PCI/$1/mwi" end=$((SECONDS + $2))
	while [ "$SECONDS" -lt "$end" ]; do
		echo $((i % 2)) 2>/dev/null >"$f" || true
		i=$((i + 1))
	done
	echo "$i"
}

# Until $STOP exists, read COMMAND through the config file and fail if the
# bits other than MWI are ever anything but 0x0146 (or 0x0000: a function
# just created by a rescan or reload, before setpci sets them again).
# Prints the number of reads.
checker() {
	local cmd n=0
	while [ ! -e "$STOP" ]; do
		cmd=$(od -An -tx2 -j4 -N2 "$SYSFS_PCI/$1/config" 2>/dev/null) || continue
		# od pads its output with spaces: "0x 0146" is no number.
		cmd=${cmd//[[:space:]]/}
		[ -n "$cmd" ] || continue
		n=$((n + 1))
		if (( (0x$cmd & ~0x10) != 0x0146 && (0x$cmd & ~0x10) != 0 )); then
			echo "COMMAND 0x$cmd after $n reads"
			return 1
		fi
	done
	echo "$n"
}

# Run 4 writers for STRESS_SECONDS, plus "$@" alongside, with the
# checker; fail if the checker saw another COMMAND bit change or the
# writers wrote nothing.
stress() {
	local pids=() i rc=0 writes=0
	checker "$slot" >"$BATS_TEST_TMPDIR/checker" &
	local checker_pid=$!
	for i in 1 2 3 4; do
		writer "$slot" "${STRESS_SECONDS:-15}" >"$BATS_TEST_TMPDIR/writer$i" &
		pids+=($!)
	done
	"$@"
	for i in "${pids[@]}"; do
		wait "$i"
	done
	touch "$STOP"
	wait "$checker_pid" || rc=1
	[ "$rc" = 0 ] || fail "checker: $(cat "$BATS_TEST_TMPDIR/checker")"
	[ "$(cat "$BATS_TEST_TMPDIR/checker")" -gt 0 ] || fail "the checker never read COMMAND"
	for i in 1 2 3 4; do
		writes=$((writes + $(cat "$BATS_TEST_TMPDIR/writer$i")))
	done
	# How many writes fit in the time depends on the host's load (TCG,
	# KASAN and lockdep); the race needs writes, not a rate.
	[ "$writes" -gt 0 ] || fail "the writers never wrote"
}

@test "4 writers toggling mwi for 15 s never change another COMMAND bit" {
	stress true
	run cat "$(mwi_file "$slot")"
	assert_success
	local cmd
	cmd=$(sim_knob "$slot" command)
	assert_equal "$(printf '0x%04x' $((cmd & ~0x10)))" 0x0146
}

remove_and_rescan() {
	local i
	for i in 1 2 3 4 5 6 7 8 9 10; do
		echo 1 >"$SYSFS_PCI/$slot/remove" 2>/dev/null || true
		echo 1 >/sys/bus/pci/rescan
		# A rescanned function starts with COMMAND as the device holds it.
		setpci -s "$slot" COMMAND=0146:0146 2>/dev/null || true
	done
}

@test "the writers race with remove and rescan of the function without a crash or a changed bit" {
	stress remove_and_rescan
	echo 1 >/sys/bus/pci/rescan
	[ -e "$(mwi_file "$slot")" ]
}

reload_module() {
	local i
	for i in 1 2 3; do
		sim_unload
		sim_load
		setpci -s "$slot" COMMAND=0146:0146 2>/dev/null || true
	done
}

@test "the writers race with unloading and reloading the emulator without a crash" {
	stress reload_module
	[ -e "$(mwi_file "$slot")" ]
}

@test "an mwi descriptor opened before the function is removed fails with ENODEV when written" {
	exec {fd}>"$(mwi_file "$slot")"
	echo 1 >"$SYSFS_PCI/$slot/remove"
	run bash -c "echo 1 >&$fd"
	assert_failure
	assert_output --partial "No such device"
	exec {fd}>&-
	echo 1 >/sys/bus/pci/rescan
}
