#!/usr/bin/env bats
# mwictl rule on|off: udev rules for a selection (the guest runs them with
# systemd-udevd: tests-bats/sim-udev.bats).

setup() {
	load helpers
	standard_tree
}

rule_lines() {
	mwictl rule "$@" | grep -v '^#'
}

@test "rule -d VENDOR:DEVICE matches by the vendor and device attributes" {
	assert_equal "$(rule_lines -d 8086:100e)" \
		'ACTION=="add", SUBSYSTEM=="pci", ATTR{vendor}=="0x8086", ATTR{device}=="0x100e", TEST=="mwi", ATTR{mwi}="1"'
}

@test "rule with a slot gives one rule per function, by its kernel name" {
	assert_equal "$(rule_lines 3)" \
		'ACTION=="add", SUBSYSTEM=="pci", KERNEL=="0000:00:03.0", TEST=="mwi", ATTR{mwi}="1"
ACTION=="add", SUBSYSTEM=="pci", KERNEL=="0000:01:03.0", TEST=="mwi", ATTR{mwi}="1"'
}

@test "rule -d with a class matches the class attribute with ? for what is left open" {
	assert_equal "$(rule_lines -d ::0200)" \
		'ACTION=="add", SUBSYSTEM=="pci", ATTR{class}=="0x0200??", TEST=="mwi", ATTR{mwi}="1"'
	assert_equal "$(rule_lines -d 10ec::0c03:30)" \
		'ACTION=="add", SUBSYSTEM=="pci", ATTR{vendor}=="0x10ec", ATTR{class}=="0x0c0330", TEST=="mwi", ATTR{mwi}="1"'
}

@test "rule -d for a device not present still gives its rule" {
	assert_equal "$(rule_lines -d 1000:0012)" \
		'ACTION=="add", SUBSYSTEM=="pci", ATTR{vendor}=="0x1000", ATTR{device}=="0x0012", TEST=="mwi", ATTR{mwi}="1"'
}

@test "rule starts with a comment that says where the file goes" {
	run mwictl rule -d 8086:100e
	assert_line --index 1 "# driver binds to it. Save as /etc/udev/rules.d/70-mwi.rules; see mwictl(8)."
}

@test "rule -d : would match every function and is refused" {
	run --separate-stderr mwictl rule -d :
	assert_equal "$status" 1
	assert_equal "$stderr" "mwictl: rule: -d ':' selects every PCI function; name a vendor, device or class"
	assert_equal "$output" ""
}

@test "rule for a PCI Express function gives no rule and exits 3" {
	add_dev 0000:02:00.0 8086:10d3 020000 none
	echo "2.5 GT/s PCIe" >"$(dev_dir 0000:02:00.0)/current_link_speed"
	run --separate-stderr mwictl rule 02:00.0 00:02.0
	assert_equal "$status" 3
	assert_equal "$stderr" "mwictl: 0000:02:00.0: no rule: MWI cannot exist on a PCI Express function"
	assert_equal "$(grep -v '^#' <<<"$output")" \
		'ACTION=="add", SUBSYSTEM=="pci", KERNEL=="0000:00:02.0", TEST=="mwi", ATTR{mwi}="1"'
}


@test "every rule tests for the mwi attribute before it writes it (TEST==\"mwi\")" {
	run mwictl rule off 3 -d 8086:100e
	assert_equal "$status" 0
	assert_equal "$(grep -vc '^#' <<<"$output")" 2
	assert_equal "$(grep -v '^#' <<<"$output" | grep -vc ', TEST=="mwi", ATTR{mwi}="0"$')" 0
}

@test "rule off writes 0 and says off in its comment, rule on and plain rule write 1" {
	assert_equal "$(rule_lines off -d 8086:100e)" \
		'ACTION=="add", SUBSYSTEM=="pci", ATTR{vendor}=="0x8086", ATTR{device}=="0x100e", TEST=="mwi", ATTR{mwi}="0"'
	assert_equal "$(mwictl rule off -d 8086:100e | head -1)" \
		"# Turn PCI Memory-Write-and-Invalidate off when the function appears, before a"
	assert_equal "$(rule_lines on -d 8086:100e)" "$(rule_lines -d 8086:100e)"
	assert_equal "$(mwictl rule on 3 | head -1)" \
		"# Turn PCI Memory-Write-and-Invalidate on when the function appears, before a"
}

@test "rule -d works without a /sys (an image build or a chroot)" {
	run --separate-stderr "$MWICTL" --sysfs "$BATS_TEST_TMPDIR/nothing" rule off -d 10ec:8139
	assert_equal "$status" 0
	assert_equal "$stderr" ""
	assert_equal "$(grep -v '^#' <<<"$output")" \
		'ACTION=="add", SUBSYSTEM=="pci", ATTR{vendor}=="0x10ec", ATTR{device}=="0x8139", TEST=="mwi", ATTR{mwi}="0"'
}

@test "rule with a slot still needs a /sys: exit 6 without one" {
	run --separate-stderr "$MWICTL" --sysfs "$BATS_TEST_TMPDIR/nothing" rule off 00:03.0
	assert_equal "$status" 6
	assert_equal "$stderr" "mwictl: $BATS_TEST_TMPDIR/nothing/bus/pci/devices: No such file or directory"
}

@test "rule warns when the running kernel has no mwi attribute, and still writes the rule" {
	new_tree
	MWI_CONFIG=1 add_dev 0000:00:03.0 8086:100e 020000 none 16 e1000
	run --separate-stderr mwictl rule on -d 8086:100e
	assert_equal "$status" 0
	assert_equal "$stderr" "mwictl: rule: the running kernel has no mwi attribute: the rules do nothing until it has one"
	assert_equal "$(grep -vc '^#' <<<"$output")" 1
}

@test "rule -d warns for each present function it matches where MWI cannot exist" {
	add_dev 0000:02:00.0 8086:10d3 020000 none
	echo "2.5 GT/s PCIe" >"$(dev_dir 0000:02:00.0)/current_link_speed"
	run --separate-stderr mwictl rule on -d 8086:
	assert_equal "$status" 0
	assert_equal "$stderr" "mwictl: rule: -d '8086:' matches 0000:02:00.0, a PCI Express function: MWI cannot exist there and the rule skips it"
	assert_equal "$(grep -v '^#' <<<"$output")" \
		'ACTION=="add", SUBSYSTEM=="pci", ATTR{vendor}=="0x8086", TEST=="mwi", ATTR{mwi}="1"'
}

@test "rule -d gives no warning on a kernel with the attribute when every match may have MWI" {
	run --separate-stderr mwictl rule off -d 8086:100e
	assert_equal "$status" 0
	assert_equal "$stderr" ""
}

@test "rule -q silences both warnings and still writes every rule" {
	new_tree
	MWI_CONFIG=1 add_dev 0000:00:03.0 8086:100e 020000 none 16 e1000
	add_dev 0000:02:00.0 8086:10d3 020000 none
	echo "2.5 GT/s PCIe" >"$(dev_dir 0000:02:00.0)/current_link_speed"
	local loud
	loud=$(mwictl rule on -d 8086: 2>/dev/null)
	run --separate-stderr mwictl rule -q on -d 8086:
	assert_success
	assert_equal "$stderr" ""
	assert_equal "$output" "$loud"
}
