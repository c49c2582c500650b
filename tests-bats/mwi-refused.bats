#!/usr/bin/env bats
# QEMU's device models do not implement the MWI bit: the kernel must say so
# through the mwi attribute and change nothing.

setup() {
	bats_load_library pci-mwi
}

@test "every PCI function has an mwi attribute that reads 0 on QEMU's devices" {
	local slot
	for slot in $(qemu_slots); do
		run cat "$(mwi_file "$slot")"
		assert_success
		assert_output 0
	done
}

@test "echo 1 > mwi fails with EOPNOTSUPP on every device and leaves COMMAND and cache line size as they were" {
	local slot before
	for slot in $(qemu_slots); do
		before=$(registers "$slot")
		run write_mwi "$slot" '1\n'
		assert_failure
		assert_output --partial "Operation not supported"
		assert_equal "$(registers "$slot") $slot" "$before $slot"
		run cat "$(mwi_file "$slot")"
		assert_output 0
	done
}

@test "echo 0 > mwi succeeds on every device, since MWI is already off, and changes nothing" {
	local slot before
	for slot in $(qemu_slots); do
		before=$(registers "$slot")
		run write_mwi "$slot" '0\n'
		assert_success
		assert_equal "$(registers "$slot") $slot" "$before $slot"
	done
}

@test "the mwi attribute is mode 0644 and owned by root" {
	local slot
	for slot in $(qemu_slots); do
		run stat -c '%a %u' "$(mwi_file "$slot")"
		assert_output "644 0"
	done
}
