#!/usr/bin/env bats
# Failing config accesses (a bridge that went away, a bus error) through
# the emulator's fault injection: the attribute returns the errno that
# pcibios_err_to_errno() gives, never stale data, and changes nothing.

setup() {
	bats_load_library pci-mwi
	sim_load
	slot=$(sim_slot accepts)
}

teardown() {
	sim_unload
}

assert_unchanged() { # COMMAND CLS
	assert_equal "$(sim_registers "$slot")" "$1 $2"
}

@test "a failed read (device_not_found) makes cat mwi fail with ENODEV" {
	sim_knob "$slot" fail_reads 1
	run read_mwi "$slot"
	assert_failure
	assert_output --partial "No such device"
	assert_equal "$(sim_knob "$slot" fail_reads)" 0
	assert_equal "$(cat "$(mwi_file "$slot")")" 0
}

@test "a failed read (set_failed) makes cat mwi fail with EIO" {
	sim_knob "$slot" fail_code set_failed
	sim_knob "$slot" fail_reads 1
	run read_mwi "$slot"
	assert_failure
	assert_output --partial "Input/output error"
}

@test "a failed read (bad_register_number) makes cat mwi fail with EFAULT" {
	sim_knob "$slot" fail_code bad_register_number
	sim_knob "$slot" fail_reads 1
	run read_mwi "$slot"
	assert_failure
	assert_output --partial "Bad address"
}

@test "a failed read makes echo 1 fail with its errno and change nothing" {
	sim_knob "$slot" fail_code set_failed
	sim_knob "$slot" fail_reads 1
	run write_mwi "$slot" '1\n'
	assert_failure
	assert_output --partial "Input/output error"
	assert_unchanged 0x0000 0
}

@test "a failed write of the cache line size makes echo 1 fail with EIO and change nothing" {
	sim_knob "$slot" fail_code set_failed
	sim_knob "$slot" fail_writes 1
	run write_mwi "$slot" '1\n'
	assert_failure
	assert_output --partial "Input/output error"
	assert_unchanged 0x0000 0
}

@test "a failed write of COMMAND makes echo 1 fail with EIO and leave MWI off" {
	setpci -s "$slot" CACHE_LINE_SIZE=10
	sim_knob "$slot" fail_code set_failed
	sim_knob "$slot" fail_writes 1
	run write_mwi "$slot" '1\n'
	assert_failure
	assert_output --partial "Input/output error"
	assert_unchanged 0x0000 64
	assert_equal "$(sim_knob "$slot" fail_writes)" 0
}

@test "a failed write of COMMAND makes echo 0 fail with EIO, leave MWI on and the policy to drivers" {
	write_mwi "$slot" '1\n'
	sim_knob "$slot" fail_code set_failed
	sim_knob "$slot" fail_writes 1
	run write_mwi "$slot" '0\n'
	assert_failure
	assert_output --partial "Input/output error"
	assert_unchanged 0x0010 64
	assert_equal "$(mwi_table_field "$slot" policy)" drivers
}

@test "a vanished device (reads all ones) makes cat mwi fail with ENODEV" {
	sim_knob "$slot" vanish 1
	run read_mwi "$slot"
	assert_failure
	assert_output --partial "No such device"
}

@test "a vanished device makes echo 1 and echo 0 fail with ENODEV and change nothing" {
	sim_knob "$slot" vanish 1
	run write_mwi "$slot" '1\n'
	assert_failure
	assert_output --partial "No such device"
	run write_mwi "$slot" '0\n'
	assert_failure
	assert_output --partial "No such device"
	sim_knob "$slot" vanish 0
	assert_unchanged 0x0000 0
	assert_equal "$(cat "$(mwi_file "$slot")")" 0
}

@test "a device that drops writes makes echo 1 fail with EOPNOTSUPP" {
	sim_knob "$slot" drop_writes 1
	run write_mwi "$slot" '1\n'
	assert_failure
	assert_output --partial "Operation not supported"
	assert_unchanged 0x0000 0
}

@test "a device that drops writes makes echo 0 fail with EOPNOTSUPP and MWI stays on" {
	write_mwi "$slot" '1\n'
	sim_knob "$slot" drop_writes 1
	run write_mwi "$slot" '0\n'
	assert_failure
	assert_output --partial "Operation not supported"
	assert_unchanged 0x0010 64
}

@test "mwictl reports a vanished device as an I/O error (exit 6 for get, 2 for on)" {
	sim_knob "$slot" vanish 1
	run mwictl get "$slot"
	assert_equal "$status" 6
	assert_output --partial "No such device"
	run mwictl on "$slot"
	assert_equal "$status" 2
}

# Failures after the cache line size was programmed (0 -> 64 bytes): the
# write must put it back, whatever the failure.

@test "a failed write of COMMAND after the cache line size was programmed puts it back" {
	sim_knob "$slot" fail_code set_failed
	sim_knob "$slot" fail_where 4
	sim_knob "$slot" fail_writes 1
	run write_mwi "$slot" '1\n'
	assert_failure
	assert_output --partial "Input/output error"
	assert_unchanged 0x0000 0
}

@test "a failed read-back of COMMAND puts COMMAND and the cache line size back" {
	sim_knob "$slot" fail_code set_failed
	sim_knob "$slot" fail_where 4
	sim_knob "$slot" fail_after 1
	sim_knob "$slot" fail_reads 1
	run write_mwi "$slot" '1\n'
	assert_failure
	assert_output --partial "Input/output error"
	assert_unchanged 0x0000 0
}

@test "a device gone (device_not_found) at the read-back of COMMAND gives ENODEV and the cache line size back" {
	sim_knob "$slot" fail_where 4
	sim_knob "$slot" fail_after 1
	sim_knob "$slot" fail_reads 1
	run write_mwi "$slot" '1\n'
	assert_failure
	assert_output --partial "No such device"
	assert_unchanged 0x0000 0
}

@test "a failed read-back of the cache line size puts the old value back" {
	sim_knob "$slot" fail_code set_failed
	sim_knob "$slot" fail_where 0x0c
	sim_knob "$slot" fail_after 1
	sim_knob "$slot" fail_reads 1
	run write_mwi "$slot" '1\n'
	assert_failure
	assert_output --partial "Input/output error"
	assert_unchanged 0x0000 0
}

@test "fail_where takes any or an offset below 256, and nothing else" {
	sim_knob "$slot" fail_where 0x04
	assert_equal "$(sim_knob "$slot" fail_where)" 4
	run sim_knob "$slot" fail_where 256
	assert_failure
	run sim_knob "$slot" fail_where four
	assert_failure
	assert_equal "$(sim_knob "$slot" fail_where)" 4
	sim_knob "$slot" fail_where any
	assert_equal "$(sim_knob "$slot" fail_where)" any
}
