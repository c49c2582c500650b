#!/usr/bin/env bats
# The MWI read-modify-write of PCI_COMMAND against
# pci_check_and_mask_intx(), which changes DisINTx from hard-IRQ context
# (uio_pci_generic, vfio). The emulator's INTx storm flips the interrupt
# status from a timer and masks or unmasks INTx every 100 us, and counts a
# COMMAND write from elsewhere that changes DisINTx as a lost change.

setup() {
	bats_load_library pci-mwi
	sim_load
	slot=$(sim_slot accepts)
}

teardown() {
	sim_knob "$slot" intx_storm 0 2>/dev/null || true
	sim_unload
}

@test "toggling mwi 10,000 times during an INTx storm loses no DisINTx change" {
	local i f storm
	f=$(mwi_file "$slot")
	sim_knob "$slot" intx_storm 1
	for ((i = 0; i < 10000; i++)); do
		echo $((i % 2)) >"$f"
	done
	storm=$(sim_knob "$slot" intx_storm)
	sim_knob "$slot" intx_storm 0
	read -r _ flips lost <<<"$storm"
	[ "$flips" -gt 100 ] || fail "the storm made only $flips INTx changes"
	assert_equal "lost $lost" "lost 0"
}
