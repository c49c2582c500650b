#!/usr/bin/env bats
# The kernel API itself, called through the emulator's "api" hook and from a
# driver's probe: pci_set_mwi(), pci_try_set_mwi(), pci_clear_mwi(),
# pci_set_cacheline_size() and pcim_set_mwi() on every personality and fault.

setup() {
	bats_load_library pci-mwi
	sim_load
}

teardown() {
	sim_unload
}

# api_row PERSONALITY OP RESULT MWI: the return value and the bit afterwards,
# as the emulator holds it (PCI Express functions have no mwi attribute).
api_row() {
	local slot
	slot=$(sim_slot "$1")
	assert_equal "$1 $2 $(sim_api "$slot" "$2")" "$1 $2 $3"
	assert_equal "$1 MWI $(( ($(sim_knob "$slot" command) >> 4) & 1 ))" "$1 MWI $4"
}

@test "pci_set_mwi() returns 0 and MWI is on for accepts, cls-odd and bridge" {
	api_row accepts set 0 1
	api_row cls-odd set 0 1
	api_row bridge set 0 1
	api_row child set 0 1
}
@test "pci_set_mwi() returns -EINVAL for refuses, cls-ro and pcie, and MWI stays off" {
	api_row refuses set -22 0
	api_row cls-ro set -22 0
	api_row pcie set -22 0
}
@test "pci_set_mwi() returns 0 for stuck, whose bit is already on" {
	api_row stuck set 0 1
}
@test "pci_try_set_mwi() returns what pci_set_mwi() would" {
	api_row accepts try_set 0 1
	api_row refuses try_set -22 0
	api_row pcie try_set -22 0
}
@test "pci_clear_mwi() returns 0 after turning MWI off on accepts" {
	api_row accepts set 0 1
	api_row accepts clear 0 0
}
@test "pci_clear_mwi() returns -EINVAL for stuck and MWI stays on" {
	api_row stuck clear -22 1
}
@test "pci_clear_mwi() returns 0 when MWI is already off" {
	api_row refuses clear 0 0
}
@test "pci_set_mwi() on a refusing device leaves the cache line size it programmed" {
	api_row refuses set -22 0
	assert_equal "$(sim_knob "$(sim_slot refuses)" cache_line_size)" 64
}
@test "pci_set_cacheline_size() returns 0 for accepts and -EINVAL for cls-ro" {
	api_row accepts cacheline 0 0
	assert_equal "$(sim_knob "$(sim_slot accepts)" cache_line_size)" 64
	api_row cls-ro cacheline -22 0
}
@test "pci_set_cacheline_size() rewrites a cache line size that is not a multiple" {
	api_row cls-odd cacheline 0 0
	assert_equal "$(sim_knob "$(sim_slot cls-odd)" cache_line_size)" 64
}
@test "pci_set_mwi() returns -ENODEV for a vanished device" {
	sim_knob "$(sim_slot accepts)" vanish 1
	assert_equal "$(sim_api "$(sim_slot accepts)" set)" -19
	assert_equal "$(sim_api "$(sim_slot accepts)" clear)" -19
	assert_equal "$(sim_api "$(sim_slot accepts)" cacheline)" -19
}
@test "pci_set_mwi() returns -EIO when a config read fails with PCIBIOS_SET_FAILED" {
	sim_knob "$(sim_slot accepts)" fail_code set_failed
	sim_knob "$(sim_slot accepts)" fail_reads 1
	assert_equal "$(sim_api "$(sim_slot accepts)" set)" -5
}
@test "pci_set_mwi() returns -ENOENT when a config write fails with PCIBIOS_FUNC_NOT_SUPPORTED" {
	sim_knob "$(sim_slot accepts)" fail_code func_not_supported
	sim_knob "$(sim_slot accepts)" fail_writes 1
	assert_equal "$(sim_api "$(sim_slot accepts)" set)" -2
}
@test "pci_clear_mwi() returns -ENOSPC when a config write fails with PCIBIOS_BUFFER_TOO_SMALL" {
	sim_api "$(sim_slot accepts)" set
	sim_knob "$(sim_slot accepts)" fail_code buffer_too_small
	sim_knob "$(sim_slot accepts)" fail_writes 1
	assert_equal "$(sim_api "$(sim_slot accepts)" clear)" -28
	assert_equal "$(cat "$(mwi_file "$(sim_slot accepts)")")" 1
}
@test "pci_set_mwi() returns -EINVAL when the device drops writes" {
	sim_knob "$(sim_slot accepts)" drop_writes 1
	assert_equal "$(sim_api "$(sim_slot accepts)" set)" -22
}

# Bind the emulator's test driver to slot $1; its probe calls pcim_set_mwi().
bind_test_driver() {
	echo pci-mwi-sim >"$SYSFS_PCI/$1/driver_override"
	echo "$1" >/sys/bus/pci/drivers/pci-mwi-sim/bind
}

@test "pcim_set_mwi() in a probe returns 0 on accepts, the driver binds, and unbinding clears MWI" {
	local slot
	slot=$(sim_slot accepts)
	bind_test_driver "$slot"
	assert_equal "$(sim_knob "$slot" probe_result)" 0
	assert_equal "$(basename "$(readlink "$SYSFS_PCI/$slot/driver")")" pci-mwi-sim
	assert_equal "$(cat "$(mwi_file "$slot")")" 1
	echo "$slot" >/sys/bus/pci/drivers/pci-mwi-sim/unbind
	assert_equal "$(cat "$(mwi_file "$slot")")" 0
}

@test "pcim_set_mwi() in a probe returns -EINVAL on refuses, and the driver still binds" {
	local slot
	slot=$(sim_slot refuses)
	bind_test_driver "$slot"
	assert_equal "$(sim_knob "$slot" probe_result)" -22
	assert_equal "$(basename "$(readlink "$SYSFS_PCI/$slot/driver")")" pci-mwi-sim
	assert_equal "$(cat "$(mwi_file "$slot")")" 0
}
