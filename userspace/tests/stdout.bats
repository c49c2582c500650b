#!/usr/bin/env bats
# Every write to standard output is checked: a full disk or a closed pipe
# never passes for success.

setup() {
	load helpers
	standard_tree
}

@test "list --json to a full disk (/dev/full) exits 6 with one message" {
	run --separate-stderr mwictl list --json
	assert_success
	run --separate-stderr bash -c '"$MWICTL" list --json >/dev/full'
	assert_equal "$status" 6
	assert_equal "$stderr" "mwictl: standard output: No space left on device"
}

@test "rule on to a full disk exits 6 with one message, not 0 with a lost rule" {
	run --separate-stderr bash -c '"$MWICTL" rule on -d 8086:100e >/dev/full'
	assert_equal "$status" 6
	assert_equal "$stderr" "mwictl: standard output: No space left on device"
}

@test "output larger than stdio's buffer to a full disk still gives one message" {
	local i
	for ((i = 0; i < 200; i++)); do
		add_dev "0000:02:$(printf %02x $((i / 8))).$((i % 8))" 8086:100e 020000 0
	done
	run --separate-stderr bash -c '"$MWICTL" list >/dev/full'
	assert_equal "$status" 6
	assert_equal "$stderr" "mwictl: standard output: No space left on device"
}

@test "on to a full disk makes the write, then exits 6 for the lost report" {
	run --separate-stderr bash -c '"$MWICTL" on 00:00.0 >/dev/full'
	assert_equal "$status" 6
	assert_equal "$stderr" "mwictl: standard output: No space left on device"
	assert_equal "$(cat "$(dev_dir 0000:00:00.0)/mwi")" 1
}

@test "a lost report ranks above a bound driver: exit 6, not 7" {
	run --separate-stderr bash -c '"$MWICTL" on --dry-run 00:00.0 00:02.0 >/dev/full'
	assert_equal "$status" 6
	assert_equal "$stderr" "mwictl: 0000:00:02.0: a driver is bound (8139cp): MWI unchanged (unbind it first, or --rebind)
mwictl: standard output: No space left on device"
}

@test "--help and --version to a full disk exit 6" {
	run bash -c '"$MWICTL" --help >/dev/full'
	assert_equal "$status" 6
	run bash -c '"$MWICTL" --version >/dev/full'
	assert_equal "$status" 6
}

@test "a closed pipe ends mwictl by SIGPIPE, as it ends lspci" {
	run closed_pipe default lspci -A linux-sysfs -O "sysfs.path=$ROOT/bus/pci"
	assert_output 141
	run --separate-stderr closed_pipe default "$MWICTL" list
	assert_equal "$output" 141
	assert_equal "$stderr" ""
}

@test "a closed pipe with SIGPIPE ignored exits 6 with one message" {
	run --separate-stderr closed_pipe ignore "$MWICTL" list --json
	assert_equal "$output" 6
	assert_equal "$stderr" "mwictl: standard output: Broken pipe"
}

@test "a usage error with a full standard output keeps its own status and message" {
	run --separate-stderr bash -c '"$MWICTL" frob >/dev/full'
	assert_equal "$status" 1
	assert_equal "$stderr" "mwictl: unknown command 'frob'
Try 'mwictl --help'."
}
