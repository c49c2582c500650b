#!/usr/bin/env bats
# Functions where MWI cannot exist: the kernel hides the mwi attribute on
# PCI Express functions (they have current_link_speed) and SR-IOV virtual
# functions (a physfn link). mwictl says "n/a" and why, never an error, and
# does not mistake them for a kernel without the series.

setup() {
	load helpers
	new_tree
	add_dev 0000:00:02.0 10ec:8139 020000 0 16
	add_dev 0000:01:00.0 10ec:8168 020000 none 0
	echo '2.5 GT/s PCIe' >"$(dev_dir 0000:01:00.0)/current_link_speed"
	add_dev 0000:02:00.1 8086:10ed 020000 none 0
	ln -s ../0000:01:00.0 "$(dev_dir 0000:02:00.1)/physfn"
}

@test "list shows n/a for a PCI Express function and a VF, and no unpatched-kernel warning" {
	run --separate-stderr mwictl list -n
	assert_success
	assert_line --regexp '^0000:01:00\.0 .* n/a '
	assert_line --regexp '^0000:02:00\.1 .* n/a '
	assert_equal "$stderr" ""
}

@test "show says why MWI cannot exist on a PCI Express function" {
	run mwictl show 0000:01:00.0
	assert_success
	assert_line 'mwi:             n/a (PCI Express function: the MWI bit is hardwired to 0)'
}

@test "show says why MWI cannot exist on an SR-IOV virtual function" {
	run mwictl show 0000:02:00.1
	assert_success
	assert_line --partial 'n/a (SR-IOV virtual function'
}

@test "get prints n/a and exits 0 on a PCI Express function" {
	run mwictl get 0000:01:00.0
	assert_success
	assert_output n/a
}

@test "on exits 3 with the reason on a PCI Express function; off exits 0" {
	run --separate-stderr mwictl on 0000:01:00.0
	assert_equal "$status" 3
	assert_equal "$stderr" "mwictl: 0000:01:00.0: device refused MWI (PCI Express function: the MWI bit is hardwired to 0)"
	run mwictl off 0000:01:00.0
	assert_success
}

@test "json gives mwi null and the reason in mwi_unavailable" {
	run mwictl list --json -s 01:00.0
	assert_success
	assert_output --partial '"mwi": null, "mwi_source": "none", "mwi_error": null, "mwi_unavailable": "PCI Express function"'
}

@test "a conventional function without the attribute still means a kernel without the series" {
	add_dev 0000:00:05.0 8086:100e 020000 none 0
	run --separate-stderr mwictl on 0000:00:05.0
	assert_equal "$status" 5
}
