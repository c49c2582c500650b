#!/usr/bin/env bats
# The mwi attribute on every personality of the emulated bus: the errno the
# ABI documents, the state afterwards through the attribute, lspci and the
# emulator's own view, the cache line size, and no other COMMAND bit changed.
# Documentation/emulator.md has this matrix as a table.

setup() {
	bats_load_library pci-mwi
	sim_load
}

teardown() {
	sim_unload
}

# Other COMMAND bits set before each write: memory, master, parity, SERR.
OTHER_BITS=0x0146

# sysfs_row SLOT WRITE RESULT MWI CLS
# RESULT is "ok" or the strerror text of the expected errno.
sysfs_row() {
	local slot=$1 write=$2 result=$3 mwi=$4 cls=$5 cmd
	setpci -s "$slot" COMMAND=0146:0146
	run write_mwi "$slot" "$write\n"
	if [ "$result" = ok ]; then
		assert_success
	else
		assert_failure
		assert_output --partial "$result"
	fi
	assert_equal "attribute $(cat "$(mwi_file "$slot")")" "attribute $mwi"
	assert_equal "lspci $(lspci_mwi "$slot")" "lspci $mwi"
	cmd=$(sim_knob "$slot" command)
	assert_equal "emulator bit4 $(( (cmd >> 4) & 1 ))" "emulator bit4 $mwi"
	assert_equal "other COMMAND bits $(printf '0x%04x' $(( cmd & ~0x10 )))" \
		"other COMMAND bits $(printf '0x%04x' "$OTHER_BITS")"
	assert_equal "cache line size $(sim_knob "$slot" cache_line_size)" "cache line size $cls"
}

@test "accepts: echo 1 turns MWI on and programs a 64-byte cache line size" {
	sysfs_row "$(sim_slot accepts)" 1 ok 1 64
}
@test "accepts: echo 0 while off succeeds and changes nothing" {
	sysfs_row "$(sim_slot accepts)" 0 ok 0 0
}
@test "accepts: echo 1 then echo 0 turns MWI off and leaves the cache line size" {
	sysfs_row "$(sim_slot accepts)" 1 ok 1 64
	sysfs_row "$(sim_slot accepts)" 0 ok 0 64
}
@test "accepts: echo 1 while on succeeds and changes nothing" {
	sysfs_row "$(sim_slot accepts)" 1 ok 1 64
	sysfs_row "$(sim_slot accepts)" 1 ok 1 64
}
@test "refuses: echo 1 fails with EOPNOTSUPP and puts the cache line size back" {
	sysfs_row "$(sim_slot refuses)" 1 "Operation not supported" 0 0
}
@test "refuses: echo 0 succeeds and changes nothing" {
	sysfs_row "$(sim_slot refuses)" 0 ok 0 0
}
@test "stuck: reads 1, and echo 1 succeeds, programming the cache line size MWI needs" {
	sysfs_row "$(sim_slot stuck)" 1 ok 1 64
}
@test "stuck: echo 0 fails with EOPNOTSUPP and MWI stays on" {
	sysfs_row "$(sim_slot stuck)" 0 "Operation not supported" 1 0
}
@test "cls-ro: echo 1 fails with EOPNOTSUPP because the cache line size is refused" {
	sysfs_row "$(sim_slot cls-ro)" 1 "Operation not supported" 0 0
}
@test "cls-ro: echo 0 succeeds and changes nothing" {
	sysfs_row "$(sim_slot cls-ro)" 0 ok 0 0
}
@test "cls-odd: echo 1 reprograms a 96-byte cache line size to 64 and turns MWI on" {
	sysfs_row "$(sim_slot cls-odd)" 1 ok 1 64
}
@test "cls-odd: echo 0 succeeds and leaves the 96-byte cache line size" {
	sysfs_row "$(sim_slot cls-odd)" 0 ok 0 96
}
@test "pcie: the function has no mwi attribute, and mwictl says n/a" {
	local slot
	slot=$(sim_slot pcie)
	[ ! -e "$(mwi_file "$slot")" ]
	[ -e "$(mwi_file "$(sim_slot accepts)")" ]
	assert_equal "$(mwictl get "$slot")" n/a
	run mwictl show "$slot"
	assert_line 'mwi:             n/a (PCI Express function: the MWI bit is hardwired to 0)'
}
@test "bridge: echo 1 turns MWI on for the bridge itself" {
	sysfs_row "$(sim_slot bridge)" 1 ok 1 64
}
@test "bridge: echo 0 succeeds and changes nothing" {
	sysfs_row "$(sim_slot bridge)" 0 ok 0 0
}
@test "the device behind the bridge: echo 1 turns MWI on, on the secondary bus" {
	sysfs_row "$(sim_slot child)" 1 ok 1 64
}
@test "the device behind the bridge: echo 0 after echo 1 turns MWI off" {
	sysfs_row "$(sim_slot child)" 1 ok 1 64
	sysfs_row "$(sim_slot child)" 0 ok 0 64
}

# Every emulated function but $1, with its registers, from the emulator.
others() {
	local slot
	for slot in $(sim_slots); do
		[ "$slot" = "$1" ] || echo "$slot $(sim_registers "$slot")"
	done
}

@test "turning MWI on for one function changes no other function" {
	local target before
	target=$(sim_slot accepts)
	before=$(others "$target")
	write_mwi "$target" '1\n'
	assert_equal "$(mwictl get "$target")" 1
	assert_equal "$(others "$target")" "$before"
}

@test "mwictl on and off drive the emulated functions with the documented exit codes and report lines" {
	run mwictl on "$(sim_slot accepts)"
	assert_success
	assert_output "$(sim_slot accepts): MWI turned on"
	assert_equal "$(mwictl get "$(sim_slot accepts)")" 1
	run mwictl on "$(sim_slot accepts)"
	assert_output "$(sim_slot accepts): MWI already on"
	run mwictl on "$(sim_slot refuses)"
	assert_equal "$status" 3
	run mwictl off "$(sim_slot stuck)"
	assert_equal "$status" 3
	assert_output --partial "device keeps MWI on"
	run mwictl off "$(sim_slot accepts)"
	assert_success
	assert_output "$(sim_slot accepts): MWI turned off"
	assert_equal "$(mwictl get "$(sim_slot accepts)")" 0
}

@test "mwictl on --dry-run on the emulated functions changes no register" {
	local before
	before=$(sim_registers "$(sim_slot accepts)")
	run mwictl on --dry-run "$(sim_slot accepts)"
	assert_success
	assert_output "$(sim_slot accepts): MWI would be turned on"
	assert_equal "$(sim_registers "$(sim_slot accepts)")" "$before"
}
