#!/usr/bin/env bats
# The mwi attribute and drivers, with the emulator's own driver (bound
# through driver_override; its probe calls pcim_set_mwi() and keeps what
# it returned and what pci_mwi_enabled() said in probe_result). While a
# driver is bound, a write fails with EBUSY and changes nothing. Without
# one, a successful "0" turns MWI off and becomes the function's policy:
# the next driver's pcim_set_mwi() returns 0, programs the cache line size
# and leaves MWI off. A successful "1" lets drivers choose again, and MWI
# it turned on is turned off before the next probe, so only a driver that
# asks gets it.
# A write that fails changes no policy (a failed access: sim-faults.bats).

setup() {
	bats_load_library pci-mwi
	sim_load
	slot=$(sim_slot accepts)
}

teardown() {
	sim_unload
}

# The MWI bit as the emulator holds it.
mwi_bit() {
	echo $(( ($(sim_knob "$1" command) >> 4) & 1 ))
}

@test "echo 0 and echo 1 > mwi fail with EBUSY while the emulator's driver is bound, and change nothing" {
	local before word
	sim_bind "$slot"
	assert_equal "$(sim_knob "$slot" probe_result)" "0 1"
	before=$(sim_registers "$slot")
	for word in 0 1; do
		run write_mwi "$slot" "$word\n"
		assert_failure
		assert_output --partial "Device or resource busy"
		assert_equal "echo $word: $(sim_registers "$slot")" "echo $word: $before"
	done
	assert_equal "$(mwi_table_field "$slot" policy)" drivers
	assert_equal "$(driver_of "$slot")" pci-mwi-sim
}

@test "unbind, echo 0, bind: the probe's pcim_set_mwi() returns 0, pci_mwi_enabled() says no, and MWI stays off" {
	sim_bind "$slot"
	assert_equal "$(mwi_bit "$slot")" 1
	sim_unbind "$slot"
	run write_mwi "$slot" '0\n'
	assert_success
	sim_bind "$slot"
	assert_equal "$(sim_knob "$slot" probe_result)" "0 0"
	assert_equal "$(mwi_bit "$slot")" 0
	assert_equal "$(cat "$(mwi_file "$slot")")" 0
	assert_equal "$(mwi_table_field "$slot" policy) $(mwi_table_field "$slot" driver)" "off pci-mwi-sim"
}

@test "unbind, echo 1, bind: the probe's pcim_set_mwi() turns MWI on" {
	write_mwi "$slot" '0\n'
	sim_bind "$slot"
	assert_equal "$(sim_knob "$slot" probe_result)" "0 0"
	sim_unbind "$slot"
	write_mwi "$slot" '1\n'
	# MWI off again behind sysfs' back: the driver must turn it on itself.
	assert_equal "$(sim_api "$slot" clear)" void
	assert_equal "$(mwi_bit "$slot")" 0
	sim_bind "$slot"
	assert_equal "$(sim_knob "$slot" probe_result)" "0 1"
	assert_equal "$(mwi_bit "$slot")" 1
	assert_equal "$(mwi_table_field "$slot" policy)" drivers
}

@test "with the policy off, a fresh function's first probe still gets the cache line size programmed, and MWI left off" {
	write_mwi "$slot" '0\n'
	sim_bind "$slot"
	assert_equal "$(sim_knob "$slot" probe_result)" "0 0"
	assert_equal "$(sim_registers "$slot")" "0x0000 64"
}

@test "the policy applies to pci_set_mwi() and pci_try_set_mwi() too, not only to probes" {
	write_mwi "$slot" '0\n'
	assert_equal "$(sim_api "$slot" set)" 0
	assert_equal "$(sim_api "$slot" enabled)" 0
	assert_equal "$(sim_api "$slot" try_set)" void
	assert_equal "$(mwi_bit "$slot")" 0
}

@test "echo 0 of a function already off still sets the policy, and echo 1 of one already on clears it" {
	write_mwi "$slot" '0\n'
	assert_equal "$(sim_api "$slot" set) $(sim_api "$slot" enabled)" "0 0"
	# Turn the bit on behind the kernel's back: "1" then finds it on.
	setpci -s "$slot" COMMAND=10:10
	write_mwi "$slot" '1\n'
	assert_equal "$(mwi_table_field "$slot" policy)" drivers
	assert_equal "$(sim_api "$slot" set) $(sim_api "$slot" enabled)" "0 1"
}

@test "a refused echo 1 leaves the policy off" {
	local refuses
	refuses=$(sim_slot refuses)
	write_mwi "$refuses" '0\n'
	run write_mwi "$refuses" '1\n'
	assert_failure
	assert_output --partial "Operation not supported"
	assert_equal "$(mwi_table_field "$refuses" policy)" off
	assert_equal "$(sim_api "$refuses" set) $(sim_api "$refuses" enabled)" "0 0"
	assert_equal "$(sim_registers "$refuses")" "0x0000 64"
}

@test "a refused echo 0 of a stuck bit leaves the policy to drivers" {
	local stuck
	stuck=$(sim_slot stuck)
	run write_mwi "$stuck" '0\n'
	assert_failure
	assert_output --partial "Operation not supported"
	assert_equal "$(mwi_table_field "$stuck" policy)" drivers
	assert_equal "$(sim_api "$stuck" set) $(sim_api "$stuck" enabled)" "0 1"
}

@test "MWI that echo 1 turned on is turned off before a driver that never asks for MWI probes" {
	write_mwi "$slot" '1\n'
	assert_equal "$(mwi_bit "$slot")" 1
	sim_bind_as "$slot" pci-mwi-sim-noask
	assert_equal "$(driver_of "$slot")" pci-mwi-sim-noask
	assert_equal "$(mwi_bit "$slot") $(cat "$(mwi_file "$slot")")" "0 0"
	assert_equal "$(mwi_table_field "$slot" policy)" drivers
}

@test "MWI that was on before echo 1 stays on when a driver that never asks for MWI probes" {
	# On behind the kernel's back, as firmware could leave it: "1" finds it on.
	setpci -s "$slot" COMMAND=10:10
	write_mwi "$slot" '1\n'
	sim_bind_as "$slot" pci-mwi-sim-noask
	assert_equal "$(driver_of "$slot")" pci-mwi-sim-noask
	assert_equal "$(mwi_bit "$slot")" 1
}
