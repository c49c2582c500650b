#!/usr/bin/env bats
# The kernel API itself, called through the emulator's "api" hook and from a
# driver's probe: pci_set_mwi() (0 whether or not MWI is now on, a
# negative errno only for a failed access), pci_mwi_enabled() (whether it
# is on), pci_try_set_mwi() and pci_clear_mwi() (void),
# pci_set_cacheline_size() and pcim_set_mwi() on every personality and
# fault.

setup() {
	bats_load_library pci-mwi
	sim_load
}

teardown() {
	sim_unload
}

# api_row PERSONALITY OP RESULT MWI: the return value ("void" for try_set
# and clear) and the bit afterwards, as the emulator holds it (PCI Express
# functions have no mwi attribute), which pci_mwi_enabled() must report.
api_row() {
	local slot
	slot=$(sim_slot "$1")
	assert_equal "$1 $2 $(sim_api "$slot" "$2")" "$1 $2 $3"
	assert_equal "$1 MWI $(( ($(sim_knob "$slot" command) >> 4) & 1 ))" "$1 MWI $4"
	assert_equal "$1 enabled $(sim_api "$slot" enabled)" "$1 enabled $4"
}

@test "pci_set_mwi() returns 0 and MWI is on for accepts, cls-odd and bridge" {
	api_row accepts set 0 1
	api_row cls-odd set 0 1
	api_row bridge set 0 1
	api_row child set 0 1
}
@test "pci_set_mwi() returns 0, not an error, for refuses, cls-ro and pcie, MWI stays off, and pci_mwi_enabled() says so" {
	api_row refuses set 0 0
	api_row cls-ro set 0 0
	api_row pcie set 0 0
}
@test "pci_set_mwi() on a PCI Express function returns 0 without programming the cache line size" {
	api_row pcie set 0 0
	assert_equal "$(sim_knob "$(sim_slot pcie)" cache_line_size)" 0
}
@test "pci_set_mwi() returns 0 for stuck, whose bit is already on" {
	api_row stuck set 0 1
}
@test "pci_try_set_mwi() returns nothing and turns MWI on where pci_set_mwi() would" {
	api_row accepts try_set void 1
	api_row refuses try_set void 0
	api_row pcie try_set void 0
}
@test "pci_clear_mwi() returns nothing and turns MWI off on accepts" {
	api_row accepts set 0 1
	api_row accepts clear void 0
}
@test "pci_clear_mwi() leaves a stuck bit on" {
	api_row stuck clear void 1
}
@test "pci_clear_mwi() when MWI is already off leaves it off" {
	api_row refuses clear void 0
}
@test "pci_set_mwi() on a refusing device leaves the cache line size it programmed" {
	api_row refuses set 0 0
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
@test "pci_set_mwi() and pci_set_cacheline_size() return -ENODEV for a vanished device" {
	sim_knob "$(sim_slot accepts)" vanish 1
	assert_equal "$(sim_api "$(sim_slot accepts)" set)" -19
	assert_equal "$(sim_api "$(sim_slot accepts)" cacheline)" -19
	assert_equal "$(sim_api "$(sim_slot accepts)" clear)" void
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
@test "pci_clear_mwi() whose config write fails leaves MWI on" {
	api_row accepts set 0 1
	sim_knob "$(sim_slot accepts)" fail_code buffer_too_small
	sim_knob "$(sim_slot accepts)" fail_writes 1
	api_row accepts clear void 1
	assert_equal "$(sim_knob "$(sim_slot accepts)" fail_writes)" 0
	assert_equal "$(cat "$(mwi_file "$(sim_slot accepts)")")" 1
}
@test "pci_set_mwi() returns 0 when the device drops writes, and pci_mwi_enabled() says MWI is off" {
	sim_knob "$(sim_slot accepts)" drop_writes 1
	api_row accepts set 0 0
}
@test "pci_mwi_enabled() is false for a vanished device and when its config read fails" {
	local slot
	slot=$(sim_slot stuck)
	assert_equal "$(sim_api "$slot" enabled)" 1
	sim_knob "$slot" fail_code set_failed
	sim_knob "$slot" fail_reads 1
	assert_equal "$(sim_api "$slot" enabled)" 0
	sim_knob "$slot" vanish 1
	assert_equal "$(sim_api "$slot" enabled)" 0
}

# Nothing but a failed access is worth a message: the log is emptied
# first, then read at levels emerg to info (the console's default).
@test "refused requests (set, try_set, clear of a stuck bit, pcim_set_mwi() in a probe) log nothing above debug level" {
	dmesg -c >/dev/null
	sim_api "$(sim_slot refuses)" set
	sim_api "$(sim_slot cls-ro)" try_set
	sim_api "$(sim_slot pcie)" try_set
	sim_api "$(sim_slot stuck)" clear
	sim_bind "$(sim_slot refuses)"
	assert_equal "$(sim_knob "$(sim_slot refuses)" probe_result)" "0 0"
	run kernel_log 6
	refute_output --regexp '[Mm][Ww][Ii]|Mem-Wr-Inval|[Ww]rite and [Ii]nvalidate'
}
@test "pci_try_set_mwi() warns about a failed config access: cannot enable Mem-Wr-Inval with the errno" {
	local slot
	slot=$(sim_slot accepts)
	sim_knob "$slot" fail_code set_failed
	sim_knob "$slot" fail_reads 1
	dmesg -c >/dev/null
	assert_equal "$(sim_api "$slot" try_set)" void
	run kernel_log 4
	assert_line --regexp "^(\[ *[0-9.]+\] )?pci $slot: cannot enable Mem-Wr-Inval \(-EIO\)$"
}

@test "pcim_set_mwi() in a probe returns 0 on accepts, the driver binds, and unbinding clears MWI" {
	local slot
	slot=$(sim_slot accepts)
	sim_bind "$slot"
	assert_equal "$(sim_knob "$slot" probe_result)" "0 1"
	assert_equal "$(driver_of "$slot")" pci-mwi-sim
	assert_equal "$(cat "$(mwi_file "$slot")")" 1
	sim_unbind "$slot"
	assert_equal "$(cat "$(mwi_file "$slot")")" 0
}

@test "pcim_set_mwi() in a probe returns 0 on refuses, pci_mwi_enabled() says no, and the driver binds" {
	local slot
	slot=$(sim_slot refuses)
	sim_bind "$slot"
	assert_equal "$(sim_knob "$slot" probe_result)" "0 0"
	assert_equal "$(driver_of "$slot")" pci-mwi-sim
	assert_equal "$(cat "$(mwi_file "$slot")")" 0
}
