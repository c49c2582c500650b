#!/usr/bin/env bats
# <debugfs>/pci/mwi with the emulated bus: rows come and go with devices,
# and every field is what the function holds at the moment the table is
# read: possible, the bit and cache line size, the policy, the driver.

setup() {
	bats_load_library pci-mwi
}

teardown() {
	sim_unload
}

@test "rows for the emulated functions appear on load and disappear on unload" {
	sim_load
	assert_equal "$(grep -c '^1[0-9a-f]\{4\}:' "$MWI_TABLE")" 8
	assert_equal "$(grep -v '^#' "$MWI_TABLE" | awk '{ print $1 }')" "$(pci_slots | sort -t: -k1,1 -k2,2 -k3,3)"
	sim_unload
	assert_equal "$(grep -c '^1[0-9a-f]\{4\}:' "$MWI_TABLE")" 0
}

@test "possible is no on the pcie function and yes on every other emulated function" {
	local slot want
	sim_load
	for slot in $(sim_slots); do
		want=yes
		[ "$slot" = "$(sim_slot pcie)" ] && want=no
		assert_equal "$slot $(mwi_table_field "$slot" possible)" "$slot $want"
	done
}

@test "every emulated function's hw and cls are the emulator's COMMAND bit 4 and cache line size" {
	local slot cmd cls
	sim_load
	write_mwi "$(sim_slot accepts)" '1\n'
	for slot in $(sim_slots); do
		read -r cmd cls <<<"$(sim_registers "$slot")"
		assert_equal "$slot $(mwi_table_field "$slot" hw) $(mwi_table_field "$slot" cls)" \
			"$slot $( (( cmd & 0x10 )) && echo on || echo off) $cls"
	done
	assert_equal "$(mwi_table_field "$(sim_slot accepts)" hw)" on
	assert_equal "$(mwi_table_field "$(sim_slot stuck)" hw)" on
	assert_equal "$(mwi_table_field "$(sim_slot cls-odd)" cls)" 96
}

@test "hw is read when the table is read: a change behind the kernel's back shows at once" {
	local slot
	sim_load
	slot=$(sim_slot accepts)
	assert_equal "$(mwi_table_field "$slot" hw)" off
	setpci -s "$slot" COMMAND=10:10
	assert_equal "$(mwi_table_field "$slot" hw)" on
}

@test "a vanished function shows ? for hw and cls" {
	sim_load
	sim_knob "$(sim_slot accepts)" vanish 1
	assert_equal "$(mwi_table_field "$(sim_slot accepts)" hw) $(mwi_table_field "$(sim_slot accepts)" cls)" "? ?"
}

@test "a function in D3cold shows d3cold for hw and cls, and the table neither reads it nor wakes it" {
	local slot power
	sim_load
	slot=$(sim_slot accepts)
	power=$SYSFS_PCI/$slot/power
	runtime_suspend "$slot"
	sim_knob "$slot" d3cold 1
	sim_reset_counts "$slot"
	assert_equal "$(mwi_table_field "$slot" hw) $(mwi_table_field "$slot" cls)" "d3cold d3cold"
	assert_equal "config accesses $(sim_counts "$slot")" "config accesses 0 0"
	assert_equal "$(cat "$power/runtime_status")" suspended
	sim_knob "$slot" d3cold 0
	echo on >"$power/control"
	assert_equal "$(mwi_table_field "$slot" hw) $(mwi_table_field "$slot" cls)" "off 0"
}

@test "policy says off after echo 0 and drivers again after echo 1" {
	local slot
	sim_load
	slot=$(sim_slot accepts)
	assert_equal "$(mwi_table_field "$slot" policy)" drivers
	write_mwi "$slot" '0\n'
	assert_equal "$(mwi_table_field "$slot" policy)" off
	write_mwi "$slot" '1\n'
	assert_equal "$(mwi_table_field "$slot" policy)" drivers
}

@test "the driver column names pci-mwi-sim while it is bound, and - after unbind" {
	local slot
	sim_load
	slot=$(sim_slot accepts)
	assert_equal "$(mwi_table_field "$slot" driver)" -
	sim_bind "$slot"
	assert_equal "$(mwi_table_field "$slot" driver)" pci-mwi-sim
	sim_unbind "$slot"
	assert_equal "$(mwi_table_field "$slot" driver)" -
}

@test "reading the table while the emulator loads and unloads is safe" {
	( for _ in $(seq 200); do cat "$MWI_TABLE" >/dev/null || exit 1; done ) &
	reader=$!
	for _ in 1 2 3 4 5; do
		sim_load
		sim_unload
	done
	wait "$reader"
}
