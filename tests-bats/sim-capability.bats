#!/usr/bin/env bats
# The store asks for exactly CAP_SYS_ADMIN: root with every other
# capability cannot write and changes nothing; root with CAP_SYS_ADMIN
# alone can. (mwi-input.bats drops every capability at once, which a store
# asking for the wrong one would pass too.)

setup() {
	bats_load_library pci-mwi
	sim_load
	slot=$(sim_slot accepts)
}

teardown() {
	sim_unload
}

# The effective capability mask of a process run through $@, in hex.
cap_eff() {
	"$@" awk '$1 == "CapEff:" { print $2 }' /proc/self/status
}

# Bit $2 of the hex capability mask $1: 1 or 0.
cap_bit() {
	echo $(( (0x$1 >> $2) & 1 ))
}

CAP_DAC_OVERRIDE=1
CAP_SYS_ADMIN=21

@test "root without CAP_SYS_ADMIN but with every other capability gets EPERM from echo 1 and changes nothing" {
	local mask before
	mask=$(cap_eff as_root_without_sys_admin)
	assert_equal "CAP_DAC_OVERRIDE $(cap_bit "$mask" "$CAP_DAC_OVERRIDE")" "CAP_DAC_OVERRIDE 1"
	assert_equal "CAP_SYS_ADMIN $(cap_bit "$mask" "$CAP_SYS_ADMIN")" "CAP_SYS_ADMIN 0"
	before=$(sim_registers "$slot")
	run write_mwi "$slot" '1\n' as_root_without_sys_admin
	assert_failure
	assert_output --partial "Operation not permitted"
	assert_equal "$(sim_registers "$slot")" "$before"
	assert_equal "$(read_mwi "$slot")" 0
}

@test "root with CAP_SYS_ADMIN alone can echo 1 and the device's bit is on" {
	local mask
	mask=$(cap_eff as_root_with_only_sys_admin)
	assert_equal "CAP_SYS_ADMIN $(cap_bit "$mask" "$CAP_SYS_ADMIN")" "CAP_SYS_ADMIN 1"
	assert_equal "CAP_DAC_OVERRIDE $(cap_bit "$mask" "$CAP_DAC_OVERRIDE")" "CAP_DAC_OVERRIDE 0"
	run write_mwi "$slot" '1\n' as_root_with_only_sys_admin
	assert_success
	assert_equal "$(( $(sim_knob "$slot" command) & 0x10 ))" 16
	assert_equal "$(read_mwi "$slot")" 1
}
