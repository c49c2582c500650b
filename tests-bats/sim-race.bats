#!/usr/bin/env bats
# Writes of mwi raced against binds and unbinds of a driver. The store's
# promise, "never under a bound driver" (EBUSY), holds only because it
# checks for a driver and writes PCI_COMMAND under the device lock, which
# the driver core holds across probe and remove: a write that comes
# during a probe waits for it, then finds the driver and fails with EBUSY.
# The emulator's driver chooses MWI early in its probe and then goes on
# for a while (probe_delay_ms), which is where a store without the lock
# would change the bit under it. Runs in the sim guest and, on the
# KASAN, lockdep and kmemleak kernel, in the stress guest.

ITERATIONS=30
WRITERS=4

setup() {
	bats_load_library pci-mwi
	sim_load
	slot=$(sim_slot accepts)
	sim_knob "$slot" probe_delay_ms 50
	writers=
}

teardown() {
	touch "$BATS_TEST_TMPDIR/stop"
	[ -z "$writers" ] || wait $writers 2>/dev/null || true
	[ ! -e "$SYSFS_PCI/$slot/driver" ] || sim_unbind "$slot"
	sim_unload
}

# Writer $1: writes 1, then 0, in turn to the slot's mwi until told to
# stop; one line per write: ok, busy (EBUSY) or the error.
race_writer() {
	local value=1 out
	while [ ! -e "$BATS_TEST_TMPDIR/stop" ]; do
		if out=$(write_mwi "$slot" "$value\n" 2>&1); then
			echo ok
		else
			case "$out" in
			*"Device or resource busy"*) echo busy ;;
			*) echo "error: $out" ;;
			esac
		fi
		value=$((1 - value))
	done >"$BATS_TEST_TMPDIR/writer.$1"
}

# 1 when the emulated function has MWI on, else 0.
hw_mwi() {
	echo $(($(sim_knob "$slot" command) >> 4 & 1))
}

@test "$ITERATIONS binds and unbinds raced by $WRITERS writers of mwi: while bound, MWI is what the probe left; every write succeeds or gets EBUSY; nothing is logged" {
	local i w rc enabled first second
	dmesg -c >/dev/null
	for w in $(seq "$WRITERS"); do
		race_writer "$w" &
		writers="$writers $!"
	done
	for i in $(seq "$ITERATIONS"); do
		sim_bind "$slot"
		read -r rc enabled <<<"$(sim_knob "$slot" probe_result)"
		first=$(hw_mwi)
		sleep 0.1
		second=$(hw_mwi)
		[ "$rc $first $second" = "0 $enabled $enabled" ] ||
			fail "bind $i: the probe got $rc and left MWI $enabled; bound, the function had MWI $first, then $second"
		sim_unbind "$slot"
	done
	touch "$BATS_TEST_TMPDIR/stop"
	wait $writers
	writers=
	cat "$BATS_TEST_TMPDIR"/writer.* >"$BATS_TEST_TMPDIR/outcomes"
	run grep -v -x -e ok -e busy "$BATS_TEST_TMPDIR/outcomes"
	assert_output ''
	grep -q -x busy "$BATS_TEST_TMPDIR/outcomes" || fail "no write met a bound driver: nothing raced"
	grep -q -x ok "$BATS_TEST_TMPDIR/outcomes" || fail "no write found the function unbound: nothing raced"
	run kernel_log 4
	assert_output ''
}
