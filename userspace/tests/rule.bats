#!/usr/bin/env bats
# mwictl rule: udev rules for a selection (the guest runs one with
# systemd-udevd: tests-bats/udev-rule.bats).

setup() {
	load helpers
	standard_tree
}

rule_lines() {
	mwictl rule "$@" | grep -v '^#'
}

@test "rule -d VENDOR:DEVICE matches by the vendor and device attributes" {
	assert_equal "$(rule_lines -d 8086:100e)" \
		'ACTION=="add", SUBSYSTEM=="pci", ATTR{vendor}=="0x8086", ATTR{device}=="0x100e", ATTR{mwi}="1"'
}

@test "rule with a slot gives one rule per function, by its kernel name" {
	assert_equal "$(rule_lines 3)" \
		'ACTION=="add", SUBSYSTEM=="pci", KERNEL=="0000:00:03.0", ATTR{mwi}="1"
ACTION=="add", SUBSYSTEM=="pci", KERNEL=="0000:01:03.0", ATTR{mwi}="1"'
}

@test "rule -d with a class matches the class attribute with ? for what is left open" {
	assert_equal "$(rule_lines -d ::0200)" \
		'ACTION=="add", SUBSYSTEM=="pci", ATTR{class}=="0x0200??", ATTR{mwi}="1"'
	assert_equal "$(rule_lines -d 10ec::0c03:30)" \
		'ACTION=="add", SUBSYSTEM=="pci", ATTR{vendor}=="0x10ec", ATTR{class}=="0x0c0330", ATTR{mwi}="1"'
}

@test "rule -d for a device not present still gives its rule" {
	assert_equal "$(rule_lines -d 1000:0012)" \
		'ACTION=="add", SUBSYSTEM=="pci", ATTR{vendor}=="0x1000", ATTR{device}=="0x0012", ATTR{mwi}="1"'
}

@test "rule starts with a comment that says where the file goes" {
	run mwictl rule -d 8086:100e
	assert_line --index 1 "# driver binds to it. Save as /etc/udev/rules.d/70-mwi.rules; see mwictl(8)."
}

@test "rule -d : would match every function and is refused" {
	run --separate-stderr mwictl rule -d :
	assert_equal "$status" 1
	assert_equal "$stderr" "mwictl: rule: -d : selects every PCI function; name a vendor, device or class"
	assert_equal "$output" ""
}

@test "rule for a PCI Express function gives no rule and exits 3" {
	add_dev 0000:02:00.0 8086:10d3 020000 none
	echo "2.5 GT/s PCIe" >"$(dev_dir 0000:02:00.0)/current_link_speed"
	run --separate-stderr mwictl rule 02:00.0 00:02.0
	assert_equal "$status" 3
	assert_equal "$stderr" "mwictl: 0000:02:00.0: no rule: MWI cannot exist on a PCI Express function"
	assert_equal "$(grep -v '^#' <<<"$output")" \
		'ACTION=="add", SUBSYSTEM=="pci", KERNEL=="0000:00:02.0", ATTR{mwi}="1"'
}

