#!/usr/bin/env bats
# -A METHOD picks libpci's access method by name, as lspci -A does. Only
# linux-sysfs, the default, has the kernel's mwi attribute.

setup() {
	load helpers
	standard_tree
}

@test "-A help lists libpci's access methods exactly as lspci -A help does, and exits 0" {
	run mwictl -A help
	assert_success
	assert_output "$(lspci -A help)"
}

@test "-A with an unknown method is refused with exit 1 and names mwictl -A help" {
	run --separate-stderr mwictl -A bogus list
	assert_failure 1
	assert_equal "$output" ""
	assert_equal "$stderr" "mwictl: -A 'bogus': unknown access method (mwictl -A help lists them)"
	run --separate-stderr mwictl -A bogus get 00:03.0
	assert_failure 1
}

@test "-A linux-sysfs is the default: the kernel's mwi attribute, under --sysfs" {
	run mwictl list -n
	local plain=$output
	run --separate-stderr mwictl -A linux-sysfs list -n
	assert_success
	assert_output "$plain"
	assert_equal "$stderr" ""
	run mwictl -A linux-sysfs show 00:03.0
	assert_line 'mwi source:      sysfs mwi attribute'
}

@test "-A dump without a dump is refused with exit 1" {
	run --separate-stderr mwictl -A dump list
	assert_failure 1
	assert_equal "${stderr%%$'\n'*}" "mwictl: -A dump needs the dump: -F FILE"
}

@test "-F with another access method than dump is refused with exit 1" {
	run --separate-stderr mwictl -A linux-proc -F "$BATS_TEST_DIRNAME/dumps/all-xxx.dump" list
	assert_failure 1
	assert_equal "${stderr%%$'\n'*}" "mwictl: option '-F' reads a dump: not with -A linux-proc"
}
