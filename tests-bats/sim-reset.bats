#!/usr/bin/env bats
# MWI while config access to a function is blocked, as a reset blocks it
# (pci_dev_lock() takes pci_cfg_access_lock() for the whole reset, from
# before the registers are saved until they are restored), and across
# real resets. The emulator's block_cfg knob holds that block for as long
# as a test needs: a read of the mwi file (the user accessors) and a write
# wait for it; the debugfs view does not wait and does not read the
# function, it shows "blocked". A reset of the bridge's child (a bus
# reset) leaves MWI as it was, and nothing reads or writes it wrong while
# resets and reads race. The "flr" function has a conventional PCI FLR
# (af_flr), which puts COMMAND and the cache line size to 0 at once: the
# reset attribute's save and restore put them back, and a write or read
# of mwi, or a read of the view, during it sees only what the restore
# put back.

setup() {
	bats_load_library pci-mwi
	sim_load devices=accepts,bridge,flr
	slot=$(sim_slot accepts)
	flr=$(sim_slot flr)
	write_mwi "$slot" '1\n'
	assert_equal "$(sim_registers "$slot")" "0x0010 64"
}

teardown() {
	[ -z "${pid:-}" ] || kill "$pid" 2>/dev/null || true
	sim_knob "$slot" block_cfg 0 2>/dev/null || true
	sim_unload
}

@test "while config access is blocked, as by a reset, the debugfs view shows blocked and reads nothing of the function" {
	sim_knob "$slot" block_cfg 1
	sim_reset_counts "$slot"
	assert_equal "$(mwi_table_field "$slot" hw) $(mwi_table_field "$slot" cls)" "blocked blocked"
	assert_equal "$(sim_counts "$slot")" "0 0"
	sim_knob "$slot" block_cfg 0
	assert_equal "$(mwi_table_field "$slot" hw) $(mwi_table_field "$slot" cls)" "on 64"
}

@test "a read of mwi while config access is blocked waits until it is unblocked, then reads 1" {
	sim_knob "$slot" block_cfg 1
	cat "$(mwi_file "$slot")" >"$BATS_TEST_TMPDIR/read" &
	pid=$!
	sleep 1
	kill -0 "$pid" || fail "the read did not wait for the block: $(cat "$BATS_TEST_TMPDIR/read")"
	sim_knob "$slot" block_cfg 0
	wait "$pid"
	pid=
	assert_equal "$(cat "$BATS_TEST_TMPDIR/read")" 1
}

@test "echo 0 > mwi while config access is blocked waits until it is unblocked, then turns MWI off" {
	sim_knob "$slot" block_cfg 1
	write_mwi "$slot" '0\n' &
	pid=$!
	sleep 1
	kill -0 "$pid" || fail "the write did not wait for the block"
	assert_equal "$(sim_knob "$slot" command)" 0x0010
	sim_knob "$slot" block_cfg 0
	wait "$pid"
	pid=
	assert_equal "$(sim_registers "$slot")" "0x0000 64"
}

@test "a bus reset of the bridge's child leaves MWI and the cache line size as they were, on and off" {
	local child
	child=$(sim_slot child)
	grep -qw bus "$SYSFS_PCI/$child/reset_method" ||
		skip "the emulated bridge's child offers no bus reset: $(cat "$SYSFS_PCI/$child/reset_method")"
	write_mwi "$child" '1\n'
	echo 1 >"$SYSFS_PCI/$child/reset"
	assert_equal "$(sim_registers "$child") $(cat "$(mwi_file "$child")")" "0x0010 64 1"
	assert_equal "$(mwi_table_field "$child" hw) $(mwi_table_field "$child" cls)" "on 64"
	write_mwi "$child" '0\n'
	echo 1 >"$SYSFS_PCI/$child/reset"
	assert_equal "$(sim_registers "$child") $(cat "$(mwi_file "$child")")" "0x0000 64 0"
}

@test "20 bus resets of the child raced by reads of mwi and of the debugfs view: every read is 1, on or blocked, nothing is logged" {
	local child i
	child=$(sim_slot child)
	grep -qw bus "$SYSFS_PCI/$child/reset_method" ||
		skip "the emulated bridge's child offers no bus reset: $(cat "$SYSFS_PCI/$child/reset_method")"
	write_mwi "$child" '1\n'
	dmesg -c >/dev/null
	(for i in $(seq 20); do echo 1 >"$SYSFS_PCI/$child/reset"; done) &
	pid=$!
	for i in $(seq 20); do
		cat "$(mwi_file "$child")" >>"$BATS_TEST_TMPDIR/reads"
		mwi_table_field "$child" hw >>"$BATS_TEST_TMPDIR/view"
	done
	wait "$pid"
	pid=
	assert_equal "$(sort -u "$BATS_TEST_TMPDIR/reads")" 1
	run grep -v -x -e on -e blocked "$BATS_TEST_TMPDIR/view"
	assert_failure
	assert_equal "$(sim_registers "$child")" "0x0010 64"
	run kernel_log 5
	assert_output ''
}

@test "echo 1 > reset on a function with an FLR (af_flr) puts MWI and the cache line size back as they were, on and off" {
	assert_equal "$(cat "$SYSFS_PCI/$flr/reset_method")" af_flr
	write_mwi "$flr" '1\n'
	echo 1 >"$SYSFS_PCI/$flr/reset"
	assert_equal "$(sim_knob "$flr" flrs)" 1
	assert_equal "$(sim_registers "$flr") $(read_mwi "$flr") $(mwi_table_field "$flr" hw)" "0x0010 64 1 on"
	write_mwi "$flr" '0\n'
	echo 1 >"$SYSFS_PCI/$flr/reset"
	assert_equal "$(sim_knob "$flr" flrs)" 2
	assert_equal "$(sim_registers "$flr") $(read_mwi "$flr") $(mwi_table_field "$flr" hw)" "0x0000 64 0 off"
}

@test "20 FLRs raced by writes of 1 to mwi, reads of mwi and of the debugfs view: every write succeeds, every read is 1, the view on or blocked, nothing is logged" {
	local i
	write_mwi "$flr" '1\n'
	dmesg -c >/dev/null
	(for i in $(seq 20); do echo 1 >"$SYSFS_PCI/$flr/reset" || exit; done) &
	pid=$!
	for i in $(seq 20); do
		write_mwi "$flr" '1\n' >>"$BATS_TEST_TMPDIR/writes" 2>&1 || echo "write $i failed" >>"$BATS_TEST_TMPDIR/writes"
		read_mwi "$flr" >>"$BATS_TEST_TMPDIR/reads"
		mwi_table_field "$flr" hw >>"$BATS_TEST_TMPDIR/view"
	done
	wait "$pid"
	pid=
	assert_equal "$(sim_knob "$flr" flrs)" 20
	assert_equal "$(cat "$BATS_TEST_TMPDIR/writes")" ""
	assert_equal "$(sort -u "$BATS_TEST_TMPDIR/reads")" 1
	run grep -v -x -e on -e blocked "$BATS_TEST_TMPDIR/view"
	assert_output ''
	assert_equal "$(sim_registers "$flr") $(read_mwi "$flr")" "0x0010 64 1"
	run kernel_log 5
	assert_output ''
}

@test "echo 0 > mwi during a run of FLRs waits for the restore it meets and turns MWI off for good: the later resets keep it off" {
	local i
	write_mwi "$flr" '1\n'
	(for i in $(seq 10); do echo 1 >"$SYSFS_PCI/$flr/reset" || exit; done) &
	pid=$!
	sleep 0.3
	write_mwi "$flr" '0\n'
	wait "$pid"
	pid=
	assert_equal "$(sim_knob "$flr" flrs)" 10
	assert_equal "$(sim_registers "$flr") $(read_mwi "$flr") $(mwi_table_field "$flr" hw)" "0x0000 64 0 off"
}
