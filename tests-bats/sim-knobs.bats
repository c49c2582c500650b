#!/usr/bin/env bats
# Every fault-injection knob of the emulator validates its input: bad
# input fails with EINVAL and changes nothing.

setup() {
	bats_load_library pci-mwi
	sim_load
	slot=$(sim_slot accepts)
}

teardown() {
	sim_unload
}

# assert_knob_rejects KNOB INPUT: EINVAL, value unchanged.
assert_knob_rejects() {
	local before
	before=$(sim_knob "$slot" "$1")
	run bash -c 'printf "%b" "$2" > "$1"' _ "$SIM_DEBUGFS/$slot/$1" "$2"
	assert_failure
	assert_output --partial "Invalid argument"
	assert_equal "$1 $(sim_knob "$slot" "$1")" "$1 $before"
}

@test "fail_reads rejects junk, negatives, overflow and trailing words" {
	for input in x -1 4294967296 '1 2' '\n' '1x'; do
		assert_knob_rejects fail_reads "$input"
	done
}
@test "fail_writes rejects junk, negatives and trailing words" {
	for input in x -1 '1 2' '0x'; do
		assert_knob_rejects fail_writes "$input"
	done
}
@test "vanish, drop_writes, d3cold and block_cfg accept only 0 and 1" {
	for knob in vanish drop_writes d3cold block_cfg; do
		for input in 2 -1 yes true on x '1 1'; do
			assert_knob_rejects "$knob" "$input"
		done
	done
}
@test "fail_code accepts only the PCIBIOS error names" {
	for input in 0x86 86 device_not device_not_found_x '\n'; do
		assert_knob_rejects fail_code "$input"
	done
	sim_knob "$slot" fail_code 'set_failed
'
	assert_equal "$(sim_knob "$slot" fail_code)" set_failed
}
@test "reads and writes accept only 0, which resets them" {
	cat "$(mwi_file "$slot")"
	[ "$(sim_knob "$slot" reads)" -gt 0 ]
	for input in 1 5 x -1; do
		assert_knob_rejects reads "$input"
		assert_knob_rejects writes "$input"
	done
	sim_knob "$slot" reads 0
	assert_equal "$(sim_knob "$slot" reads)" 0
}
@test "api accepts only set, try_set, clear, cacheline and enabled" {
	for input in sett SET 'set x' '\n' reset; do
		assert_knob_rejects api "$input"
	done
	assert_equal "$(sim_knob "$slot" api)" none
}
@test "the read-only knobs refuse writes with EPERM" {
	for knob in personality command cache_line_size probe_result old_probe; do
		run bash -c 'echo 1 > "$1"' _ "$SIM_DEBUGFS/$slot/$knob"
		assert_failure
		assert_output --partial "Operation not permitted"
	done
}
@test "the knobs are root-only" {
	run stat -c '%a' "$SIM_DEBUGFS/$slot/vanish" "$SIM_DEBUGFS/$slot/personality"
	assert_equal "${lines[*]}" "600 400"
}
