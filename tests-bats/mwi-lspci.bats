#!/usr/bin/env bats
# lspci decodes PCI_COMMAND itself: it is the independent reference for
# what the mwi attribute reports.

setup() {
	bats_load_library pci-mwi
}

@test "cat mwi equals lspci's MemWINV+/MemWINV- on every function that has it" {
	local slot
	for slot in $(mwi_slots); do
		assert_equal "$slot $(cat "$(mwi_file "$slot")")" "$slot $(lspci_mwi "$slot")"
	done
}

@test "cat mwi equals bit 4 of COMMAND read through setpci on every function that has it" {
	local slot
	for slot in $(mwi_slots); do
		assert_equal "$slot $(cat "$(mwi_file "$slot")")" \
			"$slot $(( (0x$(setpci -s "$slot" COMMAND) >> 4) & 1 ))"
	done
}

@test "every function without mwi is PCI Express, and lspci shows MemWINV- there" {
	local slot
	for slot in $(pci_slots); do
		[ -e "$(mwi_file "$slot")" ] && continue
		is_pcie "$slot" || fail "$slot has no mwi but is not PCI Express"
		assert_equal "$slot $(lspci_mwi "$slot")" "$slot 0"
	done
}
