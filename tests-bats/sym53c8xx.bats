#!/usr/bin/env bats
# sym53c8xx asks for MWI because its chip can use Write and Invalidate.
# When the bus refuses MWI, the chip must be programmed not to use it:
# WRIE (bit 0 of CTEST3) clear in the value the driver loads.

setup() {
	bats_load_library pci-mwi
	conventional_pci || skip "the lsi53c895a is on the pc guest"
}

@test "sym53c8xx logs that it runs without Write and Invalidate when MWI is refused" {
	run bash -c 'dmesg | grep "MWI unavailable, not using Write and Invalidate"'
	assert_output --partial "$(slot_of_id 1000:0012)"
}

@test "sym53c8xx programs CTEST3 with WRIE clear when MWI is refused" {
	local ctest3
	# "sym0: final   SCNTL3/DMODE/DCNTL/CTEST3/4/5 = (hex) 05/8e/a0/00/09/00"
	ctest3=$(dmesg | sed -n 's|.*final *SCNTL3/DMODE/DCNTL/CTEST3/4/5 = (hex) [0-9a-f]*/[0-9a-f]*/[0-9a-f]*/\([0-9a-f]*\)/.*|\1|p')
	[ -n "$ctest3" ] || fail "sym53c8xx did not log its final CTEST3 (sym53c8xx.verb=2)"
	assert_equal "WRIE=$(( 0x$ctest3 & 1 ))" "WRIE=0"
	assert_equal "$(cat "$(mwi_file "$(slot_of_id 1000:0012)")")" 0
}
