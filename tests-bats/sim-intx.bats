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

# Bounded by time (INTX_SECONDS, default 10), not by count, so that the
# file takes as long on a loaded or slow machine as on an idle one; but
# never fewer than 1,000 toggles (the non-atomic mutant loses about one
# DisINTx change in 20).
@test "toggling mwi for INTX_SECONDS, at least 1,000 times, during an INTx storm loses no DisINTx change" {
	local i=0 f storm end=$((SECONDS + ${INTX_SECONDS:-10}))
	f=$(mwi_file "$slot")
	sim_knob "$slot" intx_storm 1
	while [ "$SECONDS" -lt "$end" ] || [ "$i" -lt 1000 ]; do
		echo $((i % 2)) >"$f"
		i=$((i + 1))
	done
	storm=$(sim_knob "$slot" intx_storm)
	sim_knob "$slot" intx_storm 0
	read -r _ flips lost <<<"$storm"
	[ "$flips" -gt 100 ] || fail "the storm made only $flips INTx changes in $i toggles"
	assert_equal "lost $lost" "lost 0"
}
