#!/usr/bin/env bats
# lspci decodes PCI_COMMAND itself: it is the independent reference for
# what the mwi attribute reports.

setup() {
	bats_load_library pci-mwi
}

@test "cat mwi equals lspci's MemWINV+/MemWINV- on every function" {
	local slot
	for slot in $(pci_slots); do
		assert_equal "$slot $(cat "$(mwi_file "$slot")")" "$slot $(lspci_mwi "$slot")"
	done
}

@test "cat mwi equals bit 4 of COMMAND read through setpci on every function" {
	local slot
	for slot in $(pci_slots); do
		assert_equal "$slot $(cat "$(mwi_file "$slot")")" \
			"$slot $(( (0x$(setpci -s "$slot" COMMAND) >> 4) & 1 ))"
	done
}
