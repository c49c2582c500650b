#!/usr/bin/env bats
# kmemleak on the KASAN + lockdep kernel, after everything the stress guest
# did before this file (sim-stress.bats' races, stress-failslab.bats'
# failing allocations) and after cycles of its own through every path of
# the series that allocates: load, write, read, the debugfs table, traced
# writes, bind and unbind, remove and rescan, unload. Any report fails:
# the base kernel leaks nothing that kmemleak sees in this guest (the first
# test says so on its own).

KMEMLEAK=/sys/kernel/debug/kmemleak

setup() {
	bats_load_library pci-mwi
	[ -e "$KMEMLEAK" ] || fail "no $KMEMLEAK: this kernel has no CONFIG_DEBUG_KMEMLEAK"
}

teardown() {
	sim_unload
}

# Scan twice, as Documentation/dev-tools/kmemleak.rst advises, after the
# minimum age of a report (5 s), and print what is reported.
kmemleak_report() {
	sleep 6
	echo scan >"$KMEMLEAK"
	echo scan >"$KMEMLEAK"
	cat "$KMEMLEAK"
}

# One cycle through the paths of the series that allocate.
cycle() {
	local slot
	sim_load
	slot=$(sim_slot accepts)
	write_mwi "$slot" '1\n'
	read_mwi "$slot" >/dev/null
	cat "$MWI_TABLE" >/dev/null
	mwi_trace_start
	write_mwi "$slot" '0\n'
	mwi_trace_stop
	sim_bind "$slot"
	sim_unbind "$slot"
	echo 1 >"$SYSFS_PCI/$slot/remove"
	echo 1 >/sys/bus/pci/rescan
	cat "$MWI_TABLE" >/dev/null
	sim_unload
}

@test "kmemleak is on and reports no leak after the stress guest's other files" {
	run kmemleak_report
	assert_success
	assert_output ""
}

@test "kmemleak reports no leak after 3 cycles of load, write, read, debugfs, trace, bind, remove, rescan and unload" {
	tracefs_mount
	for _ in 1 2 3; do
		cycle
	done
	run kmemleak_report
	assert_success
	assert_output ""
}
