#!/usr/bin/env bats
# mwictl on|off --rebind: with the emulator's driver bound (its probe calls
# pcim_set_mwi() and keeps the result in probe_result), mwictl unbinds it,
# writes, binds it again, and reports what the driver then chose. Without
# --rebind the kernel's EBUSY stands (mwictl.bats, sim-policy.bats).

setup() {
	bats_load_library pci-mwi
	sim_load
	slot=$(sim_slot accepts)
	sim_bind "$slot"
}

teardown() {
	sim_unload
}

@test "mwictl off --rebind unbinds, turns MWI off, binds again: the probe gets the refusal and MWI stays off" {
	assert_equal "$(mwictl get "$slot")" 1
	run mwictl off --rebind "$slot"
	assert_success
	assert_output "$slot: MWI turned off with pci-mwi-sim unbound; pci-mwi-sim bound again and has MWI off"
	assert_equal "$(basename "$(readlink "$SYSFS_PCI/$slot/driver")")" pci-mwi-sim
	assert_equal "$(sim_knob "$slot" probe_result)" "0 0"
	assert_equal "$(mwictl get "$slot")" 0
}

@test "mwictl on --rebind after off --rebind lets the driver choose MWI again: the probe gets MWI on" {
	mwictl off --rebind -q "$slot"
	run mwictl on --rebind "$slot"
	assert_success
	assert_output "$slot: MWI turned on with pci-mwi-sim unbound; pci-mwi-sim bound again and has MWI on"
	assert_equal "$(sim_knob "$slot" probe_result)" "0 1"
	assert_equal "$(mwictl get "$slot")" 1
}

@test "mwictl off --rebind --dry-run says what it would do and leaves the driver bound and MWI on" {
	run mwictl off --rebind --dry-run "$slot"
	assert_success
	assert_output "$slot: pci-mwi-sim would be unbound, MWI turned off and pci-mwi-sim bound again"
	assert_equal "$(basename "$(readlink "$SYSFS_PCI/$slot/driver")")" pci-mwi-sim
	assert_equal "$(mwictl get "$slot")" 1
}

@test "mwictl off --rebind as root without CAP_SYS_ADMIN exits 4 and leaves the driver bound" {
	run --separate-stderr as_root_without_sys_admin mwictl off --rebind "$slot"
	assert_equal "$status" 4
	assert_equal "$(basename "$(readlink "$SYSFS_PCI/$slot/driver")")" pci-mwi-sim
	assert_equal "$(mwictl get "$slot")" 1
}
