#!/usr/bin/env bats
# <debugfs>/pci/mwi: why MWI is on or off, per device.

setup() {
	bats_load_library pci-mwi
	TABLE=/sys/kernel/debug/pci/mwi
}

# The table's row for slot $1.
row() {
	grep "^$1 " "$TABLE"
}

# Field $2 (1-based, as documented) of slot $1's row.
field() {
	row "$1" | awk -v f="$2" '{ print $f }'
}

@test "the table starts with the platform cache line size in bytes and the column header" {
	run cat "$TABLE"
	assert_line --index 0 "# platform cache line size: 64 bytes"
	assert_line --index 1 "# slot hw cls requests refused errors clears last requester"
}

@test "the table has one row per PCI device, exactly /sys/bus/pci/devices, in bus order" {
	assert_equal "$(grep -v '^#' "$TABLE" | awk '{ print $1 }')" "$(pci_slots | sort -t: -k1,1 -k2,2 -k3,3)"
}

@test "every row's hw and cls columns match lspci and setpci" {
	local slot hw cls
	while read -r slot hw cls _; do
		assert_equal "$slot $hw" "$slot $([ "$(lspci_mwi "$slot")" = 1 ] && echo on || echo off)"
		assert_equal "$slot $cls" "$slot $(( 0x$(setpci -s "$slot" CACHE_LINE_SIZE) * 4 ))"
	done < <(grep -v '^#' "$TABLE")
}

@test "8139cp's request during probe shows as refused, with cp_init_one as the requester" {
	conventional_pci || skip "the rtl8139 is on the pc guest"
	local slot
	slot=$(slot_of_id 10ec:8139)
	assert_equal "$(row "$slot" | awk '{ print $4, $5, $6, $7, $8 }')" "1 1 0 0 -EINVAL"
	assert_equal "$(field "$slot" 9 | cut -d+ -f1)" cp_init_one
}

@test "sym53c8xx's request during probe shows as refused, with its probe path as the requester" {
	conventional_pci || skip "the lsi53c895a is on the pc guest"
	local slot
	slot=$(slot_of_id 1000:0012)
	assert_equal "$(row "$slot" | awk '{ print $4, $5, $6, $7, $8 }')" "1 1 0 0 -EINVAL"
	assert_regex "$(field "$slot" 9)" '^(sym2_probe|sym_set_workarounds)\+0x[0-9a-f]+/0x[0-9a-f]+$'
}

@test "ehci-pci's request shows as refused, with its setup path as the requester" {
	conventional_pci || skip "the usb-ehci controller is on the pc guest"
	assert_regex "$(field "$(slot_of_id 8086:24cd)" 9)" '^(ehci_pci_reinit|ehci_pci_setup)\+'

	assert_equal "$(field "$(slot_of_id 8086:24cd)" 8)" -EINVAL
}

@test "a device nobody asked about shows none and -" {
	local slot
	slot=$(pci_slots | head -1)
	assert_equal "$(row "$slot" | awk '{ print $4, $5, $6, $7, $8, $9 }')" "0 0 0 0 none -"
}

@test "writes through sysfs count, with sysfs as the requester" {
	local slot before
	slot=$(input_slot)
	before=$(row "$slot" | awk '{ print $4 + 1, $5 + 1, $6, $7 + 1 }')
	write_mwi "$slot" '1\n' || true
	write_mwi "$slot" '0\n'
	assert_equal "$(row "$slot" | awk '{ print $4, $5, $6, $7 }')" "$before"
	assert_equal "$(field "$slot" 8) $(field "$slot" 9)" "ok sysfs"
	write_mwi "$slot" '1\n' || true
	assert_equal "$(field "$slot" 8) $(field "$slot" 9)" "-EINVAL sysfs"
}

@test "rejected sysfs input is not counted" {
	local slot before
	slot=$(input_slot)
	before=$(row "$slot")
	write_mwi "$slot" 'junk\n' || true
	assert_equal "$(row "$slot")" "$before"
}

@test "user nobody cannot read the table" {
	run as_nobody cat "$TABLE"
	assert_failure
	assert_output --partial "Permission denied"
}

@test "the table is mode 0400" {
	assert_equal "$(stat -c %a "$TABLE")" 400
}

@test "mwictl show prints the table's fields for the device" {
	local slot
	slot=$(input_slot)
	run mwictl show "$slot"
	assert_line "requests:        $(field "$slot" 4)"
	assert_line "refused:         $(field "$slot" 5)"
	assert_line "last result:     $(field "$slot" 8)"
	assert_line "last requester:  $(field "$slot" 9)"
}
