#!/usr/bin/env bats
# on and off change MWI only through the kernel's mwi attribute: with a dump
# (-F) or an access method other than linux-sysfs (-A) they are refused as a
# usage error (exit 1) before anything is read or written.

setup() {
	load helpers
	standard_tree
	DUMP=$BATS_TEST_DIRNAME/dumps/all-xxx.dump
}

# Every mwi file of the tree with its contents, to compare before and after.
mwi_files() {
	grep -r . "$ROOT"/devices --include=mwi
}

@test "on and off with -F are refused with exit 1 and the reason; nothing changes" {
	local before
	before=$(mwi_files)
	run --separate-stderr mwictl on -F "$DUMP" 00:04.0
	assert_failure 1
	assert_equal "$output" ""
	assert_equal "${stderr%%$'\n'*}" "mwictl: on: -F reads a dump: MWI changes only through the kernel's mwi attribute (access method linux-sysfs); nothing changed"
	run --separate-stderr mwictl -F "$DUMP" off 00:03.0
	assert_failure 1
	assert_equal "$(mwi_files)" "$before"
}

@test "on and off with -A other than linux-sysfs are refused with exit 1; nothing changes" {
	local before
	before=$(mwi_files)
	run --separate-stderr mwictl -A linux-proc on 00:02.0
	assert_failure 1
	assert_equal "${stderr%%$'\n'*}" "mwictl: on: -A linux-proc: MWI changes only through the kernel's mwi attribute (access method linux-sysfs); nothing changed"
	run --separate-stderr mwictl -A intel-conf1 off --dry-run 00:03.0
	assert_failure 1
	run --separate-stderr mwictl -A dump -F "$DUMP" on --rebind --yes -d 8086:
	assert_failure 1
	assert_equal "$(mwi_files)" "$before"
}

@test "on with -A linux-sysfs writes as without -A" {
	run mwictl -A linux-sysfs on 00:02.0
	assert_success
	assert_output "0000:00:02.0: MWI turned on"
}
