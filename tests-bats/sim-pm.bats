#!/usr/bin/env bats
# Runtime PM (CONFIG_PM, as on every distribution kernel). An emulated
# function that accepts MWI is runtime-suspended; with cold_when_suspended
# it behaves as in D3cold (reads all ones, writes lost). A write must resume
# the function first, so that the state survives the save and restore
# around suspend; a read goes through the config file's path, which resumes
# only a function in D3cold (the kernel cannot put an emulated function
# there: this guest has no platform power management).

setup() {
	bats_load_library pci-mwi
	sim_load
	slot=$(sim_slot accepts)
	power=$SYSFS_PCI/$slot/power
}

teardown() {
	echo on >"$power/control" 2>/dev/null || true
	sim_unload
}

@test "echo 1 > mwi of a runtime-suspended function survives its resume, and lspci agrees" {
	runtime_suspend "$slot"
	run write_mwi "$slot" '1\n'
	assert_success
	echo on >"$power/control"
	assert_equal "$(cat "$power/runtime_status")" active
	assert_equal "$(cat "$(mwi_file "$slot")")" 1
	assert_equal "$(lspci_mwi "$slot")" 1
}

@test "echo 1 > mwi of a function powered off while suspended reaches the device" {
	sim_knob "$slot" cold_when_suspended 1
	runtime_suspend "$slot"
	run write_mwi "$slot" '1\n'
	assert_success
	echo on >"$power/control"
	assert_equal "$(cat "$(mwi_file "$slot")")" 1
	assert_equal "$(( $(sim_knob "$slot" command) & 0x10 ))" 16
}

@test "cat mwi of a runtime-suspended function gives the real state and, as the config file, does not wake it" {
	echo 1 >"$(mwi_file "$slot")"
	runtime_suspend "$slot"
	run read_mwi "$slot"
	assert_success
	assert_output 1
	assert_equal "$(cat "$power/runtime_status")" suspended
}
