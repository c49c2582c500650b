#!/usr/bin/env bats
# sym53c8xx asks for MWI because its chip can use Write and Invalidate.
# When MWI is off (pci_mwi_enabled() false: QEMU's lsi53c895a refuses it),
# the chip must be programmed not to use it: WRIE (bit 0 of CTEST3) clear,
# in the value the driver loads and in the chip. That the refusal is not
# logged above debug level is quiet.bats.

setup() {
	bats_load_library pci-mwi
	conventional_pci || skip "the lsi53c895a is on the pc guest"
	slot=$(slot_of_id 1000:0012)
}

@test "sym53c8xx programs CTEST3 with WRIE clear when MWI is refused, at every probe" {
	local ctest3 values
	# "sym0: final   SCNTL3/DMODE/DCNTL/CTEST3/4/5 = (hex) 05/8e/a0/00/09/00",
	# once per probe (mwi-policy.bats binds the driver again).
	values=$(dmesg | sed -n 's|.*final *SCNTL3/DMODE/DCNTL/CTEST3/4/5 = (hex) [0-9a-f]*/[0-9a-f]*/[0-9a-f]*/\([0-9a-f]*\)/.*|\1|p')
	[ -n "$values" ] || fail "sym53c8xx did not log its final CTEST3 (sym53c8xx.verb=2)"
	for ctest3 in $values; do
		assert_equal "WRIE=$(( 0x$ctest3 & 1 ))" "WRIE=0"
	done
	assert_equal "$(cat "$(mwi_file "$slot")")" 0
}

@test "the lsi53c895a's CTEST3 register, read now through its I/O BAR, has WRIE clear" {
	local ctest3
	ctest3=$(read_io_byte "$slot" 0x1b)
	assert_equal "WRIE=$(( 0x$ctest3 & 1 ))" "WRIE=0"
	assert_equal "$(lspci_mwi "$slot")" 0
}
