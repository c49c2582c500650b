#!/usr/bin/env bats
# A function with a bound driver is the driver's: sym53c8xx programmed the
# lsi53c895a (CTEST3's WRIE) from what pci_set_mwi() told it, so a write
# to mwi fails with EBUSY and changes nothing. Unbound, "0" turns MWI off
# and becomes the function's policy: the next driver's pci_set_mwi() gets
# 0 with MWI left off (pci_mwi_enabled() false), binds and keeps MWI off.

setup() {
	bats_load_library pci-mwi
	[ "$MWI_MACHINE" = pc ] ||
		skip "the lsi53c895a bound to sym53c8xx, with the debugfs table, is on the pc guest"
	slot=$(slot_of_id 1000:0012)
	sym=/sys/bus/pci/drivers/sym53c8xx
}

teardown() {
	# Leave sym53c8xx bound, whatever the test did.
	[ -n "${slot:-}" ] || return 0
	[ -e "$SYSFS_PCI/$slot/driver" ] || echo "$slot" >"$sym/bind"
}

# COMMAND, cache line size and the chip's CTEST3, read now.
state() {
	printf '%s %s\n' "$(registers "$slot")" "$(read_io_byte "$slot" 0x1b)"
}

@test "echo 0 and echo 1 > mwi fail with EBUSY while sym53c8xx is bound, and COMMAND, CLS, CTEST3 and the policy are unchanged" {
	local before policy word
	assert_equal "$(driver_of "$slot")" sym53c8xx
	before=$(state)
	policy=$(mwi_table_field "$slot" policy)
	for word in 0 1; do
		run write_mwi "$slot" "$word\n"
		assert_failure
		assert_output --partial "Device or resource busy"
		assert_equal "echo $word: $(state)" "echo $word: $before"
	done
	assert_equal "$(mwi_table_field "$slot" policy)" "$policy"
	assert_equal "$(driver_of "$slot")" sym53c8xx
}

@test "after unbind and echo 0, sym53c8xx binds again, MWI stays off, and the policy column says off" {
	echo "$slot" >"$sym/unbind"
	assert_equal "$(driver_of "$slot")" -
	run write_mwi "$slot" '0\n'
	assert_success
	assert_equal "$(mwi_table_field "$slot" policy)" off
	echo "$slot" >"$sym/bind"
	assert_equal "$(driver_of "$slot")" sym53c8xx
	run ls "$SYSFS_PCI/$slot"
	assert_output --regexp '(^|[[:space:]])host[0-9]+($|[[:space:]])'
	assert_equal "$(cat "$(mwi_file "$slot")")" 0
	assert_equal "$(lspci_mwi "$slot")" 0
	assert_equal "WRIE=$(( 0x$(read_io_byte "$slot" 0x1b) & 1 ))" "WRIE=0"
	assert_equal "$(mwi_table_field "$slot" policy) $(mwi_table_field "$slot" driver)" "off sym53c8xx"
}
