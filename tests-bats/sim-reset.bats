#!/usr/bin/env bats
# MWI while a function is being reset. A reset through its sysfs reset
# file blocks config access to the function (pci_dev_lock()) from before
# its registers are saved and PCI_COMMAND is cleared to DisINTx until they
# are restored; a bus reset of the emulated bridge's child takes over a
# second (the conventional PCI wait after a secondary bus reset). A read
# of the mwi file (the user accessors) and a write of it wait for the
# reset; the debugfs view does not wait and does not read the function:
# it shows "blocked". Afterwards MWI is as it was before the reset, or as
# the write that waited asked.

setup() {
	bats_load_library pci-mwi
	sim_load
	child=$(sim_slot child)
	grep -qw bus "$SYSFS_PCI/$child/reset_method" ||
		skip "the emulated bridge's child offers no bus reset: $(cat "$SYSFS_PCI/$child/reset_method")"
	write_mwi "$child" '1\n'
	assert_equal "$(sim_registers "$child")" "0x0010 64"
}

teardown() {
	[ -z "${resetter:-}" ] || wait "$resetter" || true
	sim_unload
}

# Reset the child in the background, and return once the reset has saved
# its registers and disabled the function (PCI_COMMAND is DisINTx only):
# from then on until the restore, config access to it is blocked.
reset_in_background() {
	local i
	echo 1 >"$SYSFS_PCI/$child/reset" &
	resetter=$!
	for i in $(seq 200); do
		[ "$(sim_knob "$child" command)" = 0x0400 ] && return 0
		sleep 0.01
	done
	fail "the reset did not disable the function: COMMAND $(sim_knob "$child" command)"
}

@test "the debugfs view does not read a function during its reset: it shows blocked, and afterwards MWI and the cache line size as restored" {
	reset_in_background
	run mwi_table_row "$child"
	assert_success
	assert_equal "$(awk '{ print $3, $4 }' <<<"$output")" "blocked blocked"
	wait "$resetter"
	resetter=
	assert_equal "$(mwi_table_field "$child" hw) $(mwi_table_field "$child" cls)" "on 64"
}

@test "a read of mwi during a reset waits for it and reads 1, as restored" {
	reset_in_background
	run cat "$(mwi_file "$child")"
	assert_success
	assert_output 1
	wait "$resetter"
	resetter=
}

@test "echo 0 > mwi during a reset waits for it, then turns MWI off; nothing is logged above info" {
	dmesg -c >/dev/null
	reset_in_background
	write_mwi "$child" '0\n'
	wait "$resetter"
	resetter=
	assert_equal "$(sim_registers "$child")" "0x0000 64"
	assert_equal "$(cat "$(mwi_file "$child")")" 0
	run kernel_log 5
	refute_output --regexp 'BUG|WARNING|Oops|[Mm][Ww][Ii]|Mem-Wr-Inval'
}
