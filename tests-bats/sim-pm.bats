#!/usr/bin/env bats
# Runtime PM (CONFIG_PM, as on every distribution kernel). An emulated
# function that accepts MWI is runtime-suspended; with cold_when_suspended
# it behaves as in D3cold (reads all ones, writes lost). A write must resume
# the function first, so that the state survives the save and restore
# around suspend; a read goes through the config file's path, which resumes
# only a function in D3cold. The d3cold knob puts a suspended function in
# D3cold as a platform would, and its runtime resume powers it on with
# COMMAND and the cache line size reset (the emulator's PM domain), so the
# PCI core's restore is what brings the state back.

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

@test "cat mwi of a function in D3cold powers it on and gives the state it had before" {
	run write_mwi "$slot" '1\n'
	assert_success
	runtime_suspend "$slot"
	sim_knob "$slot" d3cold 1
	run read_mwi "$slot"
	assert_success
	assert_output 1
	assert_equal "d3cold $(sim_knob "$slot" d3cold)" "d3cold 0"
	assert_equal "$(( $(sim_knob "$slot" command) & 0x10 ))" 16
}

@test "echo 0 > mwi of a function in D3cold powers it on and the device's bit is off" {
	run write_mwi "$slot" '1\n'
	assert_success
	runtime_suspend "$slot"
	sim_knob "$slot" d3cold 1
	run write_mwi "$slot" '0\n'
	assert_success
	assert_equal "d3cold $(sim_knob "$slot" d3cold)" "d3cold 0"
	echo on >"$power/control"
	assert_equal "$(( $(sim_knob "$slot" command) & 0x10 ))" 0
	assert_equal "$(read_mwi "$slot")" 0
}

@test "a function in D3cold with a driver bound cannot be set up: the knob says EBUSY" {
	sim_bind "$slot"
	run sim_knob "$slot" d3cold 1
	assert_failure
	assert_output --partial "busy"
	assert_equal "d3cold $(sim_knob "$slot" d3cold)" "d3cold 0"
	sim_unbind "$slot"
}
