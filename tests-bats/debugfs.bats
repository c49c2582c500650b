#!/usr/bin/env bats
# <debugfs>/pci/mwi: MWI on every function as it is now, read when the
# table is read: whether MWI can exist, the bit, the cache line size, the
# policy a sysfs "0" leaves, and the bound driver.

setup() {
	bats_load_library pci-mwi
}

# The rows, without the two comment lines.
rows() {
	grep -v '^#' "$MWI_TABLE"
}

@test "the table starts with the platform cache line size in bytes and the column header" {
	run cat "$MWI_TABLE"
	assert_line --index 0 "# platform cache line size: 64 bytes"
	assert_line --index 1 "# slot possible hw cls policy driver"
}

@test "the table has one row per PCI device, exactly /sys/bus/pci/devices, in bus order" {
	assert_equal "$(rows | awk '{ print $1 }')" "$(pci_slots | sort -t: -k1,1 -k2,2 -k3,3)"
}

@test "every row has the six documented fields" {
	local bad
	bad=$(rows | grep -Ev '^[0-9a-f]{4,}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7] (yes|no) (on|off|\?|d3cold) ([0-9]+|\?|d3cold) (drivers|off) [^ ]+$' || true)
	assert_equal "$bad" ""
}

@test "every row's hw and cls columns match lspci and setpci" {
	local slot hw cls
	while read -r slot _ hw cls _; do
		assert_equal "$slot $hw" "$slot $([ "$(lspci_mwi "$slot")" = 1 ] && echo on || echo off)"
		assert_equal "$slot $cls" "$slot $(( 0x$(setpci -s "$slot" CACHE_LINE_SIZE) * 4 ))"
	done < <(rows)
}

@test "possible is no exactly on the PCI Express functions, which have no mwi attribute" {
	local slot possible want
	while read -r slot possible _; do
		if is_pcie "$slot"; then
			want=no
		else
			want=yes
		fi
		assert_equal "$slot $possible" "$slot $want"
		assert_equal "$slot mwi attribute $([ -e "$(mwi_file "$slot")" ] && echo yes || echo no)" \
			"$slot mwi attribute $want"
	done < <(rows)
}

@test "the driver column is the bound driver's name, or -" {
	local slot driver
	while read -r slot _ _ _ _ driver; do
		assert_equal "$slot $driver" "$slot $(driver_of "$slot")"
	done < <(rows)
	if conventional_pci; then
		assert_equal "$(mwi_table_field "$(slot_of_id 10ec:8139)" driver)" 8139cp
	fi
}

@test "the NICs, to which nobody wrote 0, show policy drivers" {
	local slot n=0
	for slot in $(lspci -D -n -d "$(nic_id)" | awk '{ print $1 }'); do
		assert_equal "$slot $(mwi_table_field "$slot" policy)" "$slot drivers"
		n=$((n + 1))
	done
	assert_equal "NICs $n" "NICs 2"
}

@test "echo 0 on a function without a driver sets its policy to off, and a refused echo 1 leaves it off" {
	local slot
	slot=$(input_slot)
	write_mwi "$slot" '0\n'
	assert_equal "$(mwi_table_field "$slot" policy)" off
	run write_mwi "$slot" '1\n'
	assert_failure
	assert_output --partial "Operation not supported"
	assert_equal "$(mwi_table_field "$slot" policy)" off
}

@test "a write to a function with a bound driver fails with EBUSY and leaves its row as it was" {
	local slot before
	slot=$(bound_mwi_slots | head -1)
	[ -n "$slot" ] || skip "no function with the mwi attribute has a driver bound on this guest"
	before=$(mwi_table_row "$slot")
	run write_mwi "$slot" '0\n'
	assert_failure
	assert_output --partial "Device or resource busy"
	assert_equal "$(mwi_table_row "$slot")" "$before"
}

@test "user nobody cannot read the table" {
	run as_nobody cat "$MWI_TABLE"
	assert_failure
	assert_output --partial "Permission denied"
}

@test "the table is mode 0400" {
	assert_equal "$(stat -c %a "$MWI_TABLE")" 400
}

@test "mwictl show prints the policy of the device's row: off after echo 0, drivers choose on a NIC" {
	local slot nic
	slot=$(input_slot)
	write_mwi "$slot" '0\n'
	assert_equal "$(mwi_table_field "$slot" policy)" off
	run mwictl show "$slot"
	assert_success
	assert_line "policy:          off (drivers get no MWI)"
	nic=$(lspci -D -n -d "$(nic_id)" | awk 'NR == 1 { print $1 }')
	assert_equal "$(mwi_table_field "$nic" policy)" drivers
	run mwictl show "$nic"
	assert_success
	assert_line "policy:          drivers choose"
}
