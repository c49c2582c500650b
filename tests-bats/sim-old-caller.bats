#!/usr/bin/env bats
# Callers compiled against pci_set_mwi()'s old contract (0, or a negative
# errno) keep working: the emulator's pci-mwi-sim-old driver is written as
# 8139cp and efct were, unwinding its probe on any non-zero return of
# pci_set_mwi() and returning that value. A positive return for a refusal
# would free its state and yet leave it bound (the driver core takes a
# positive probe return as success, with a warning); old_probe tells which
# happened ("bound", "unwound N", "removed").

setup() {
	bats_load_library pci-mwi
	sim_load
}

teardown() {
	sim_unload
}

@test "an old-style caller binds with its state on a function that refuses MWI, and nothing is logged above debug level" {
	local slot
	slot=$(sim_slot refuses)
	dmesg -c >/dev/null
	sim_bind_as "$slot" pci-mwi-sim-old
	assert_equal "$(driver_of "$slot")" pci-mwi-sim-old
	assert_equal "$(sim_knob "$slot" old_probe)" bound
	assert_equal "$(sim_api "$slot" enabled)" 0
	run kernel_log 6
	refute_output --regexp 'unexpectedly returned|[Mm][Ww][Ii]|Mem-Wr-Inval'
}

@test "an old-style caller binds with its state on a PCI Express function and where the cache line size is refused" {
	local kind slot
	for kind in pcie cls-ro; do
		slot=$(sim_slot "$kind")
		sim_bind_as "$slot" pci-mwi-sim-old
		assert_equal "$kind $(driver_of "$slot")" "$kind pci-mwi-sim-old"
		assert_equal "$kind $(sim_knob "$slot" old_probe)" "$kind bound"
	done
}

@test "an old-style caller on a function that accepts MWI binds with MWI on, and its remove frees its state and clears MWI" {
	local slot
	slot=$(sim_slot accepts)
	sim_bind_as "$slot" pci-mwi-sim-old
	assert_equal "$(sim_knob "$slot" old_probe) $(sim_api "$slot" enabled)" "bound 1"
	sim_unbind "$slot"
	assert_equal "$(driver_of "$slot")" -
	assert_equal "$(sim_knob "$slot" old_probe) $(cat "$(mwi_file "$slot")")" "removed 0"
}

@test "an old-style caller whose config access fails unwinds and is not bound: only an errno fails its probe" {
	local slot
	slot=$(sim_slot accepts)
	sim_knob "$slot" fail_code set_failed
	sim_knob "$slot" fail_where 0x0c
	sim_knob "$slot" fail_reads 1
	run sim_bind_as "$slot" pci-mwi-sim-old
	assert_failure
	assert_equal "$(driver_of "$slot")" -
	assert_equal "$(sim_knob "$slot" old_probe)" "unwound -5"
}
