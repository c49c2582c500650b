#!/usr/bin/env bats
# QEMU's device models do not implement the MWI bit: the kernel must say so
# through the mwi attribute and change nothing. A function with a bound
# driver is the driver's: a write fails with EBUSY.

setup() {
	bats_load_library pci-mwi
}

@test "the mwi attribute exists exactly on the functions without a PCI Express capability" {
	local slot
	for slot in $(qemu_slots); do
		if is_pcie "$slot"; then
			[ ! -e "$(mwi_file "$slot")" ] || fail "$slot is PCI Express but has mwi"
		else
			[ -e "$(mwi_file "$slot")" ] || fail "$slot is not PCI Express but has no mwi"
		fi
	done
}

@test "every mwi attribute reads 0 on QEMU's devices" {
	local slot
	for slot in $(qemu_mwi_slots); do
		run cat "$(mwi_file "$slot")"
		assert_success
		assert_output 0
	done
}

@test "echo 1 > mwi fails with EOPNOTSUPP on every device without a driver and leaves COMMAND and cache line size as they were" {
	local slot before slots
	slots=$(unbound_mwi_slots)
	[ -n "$slots" ] || fail "no function without a driver has the mwi attribute"
	for slot in $slots; do
		before=$(registers "$slot")
		run write_mwi "$slot" '1\n'
		assert_failure
		assert_output --partial "Operation not supported"
		assert_equal "$(registers "$slot") $slot" "$before $slot"
		run cat "$(mwi_file "$slot")"
		assert_output 0
	done
}

@test "echo 0 > mwi succeeds on every device without a driver, since MWI is already off, and changes nothing" {
	local slot before slots
	slots=$(unbound_mwi_slots)
	[ -n "$slots" ] || fail "no function without a driver has the mwi attribute"
	for slot in $slots; do
		before=$(registers "$slot")
		run write_mwi "$slot" '0\n'
		assert_success
		assert_equal "$(registers "$slot") $slot" "$before $slot"
	done
}

@test "echo 1 and echo 0 > mwi fail with EBUSY on every device with a bound driver and change nothing" {
	local slot before slots word
	slots=$(bound_mwi_slots)
	[ -n "$slots" ] || skip "no function with the mwi attribute has a driver bound on this guest"
	for slot in $slots; do
		before=$(registers "$slot")
		for word in 1 0; do
			run write_mwi "$slot" "$word\n"
			assert_failure
			assert_output --partial "Device or resource busy"
		done
		assert_equal "$(registers "$slot") $slot" "$before $slot"
		assert_equal "$(cat "$(mwi_file "$slot")") $slot" "0 $slot"
	done
}

@test "the mwi attribute is mode 0644 and owned by root" {
	local slot
	for slot in $(qemu_mwi_slots); do
		run stat -c '%a %u' "$(mwi_file "$slot")"
		assert_output "644 0"
	done
}
