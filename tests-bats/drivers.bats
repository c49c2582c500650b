#!/usr/bin/env bats
# The drivers whose probe used to fail when pci_set_mwi() refused still
# bind to QEMU's devices, which all refuse MWI, and bring up what they drive.

setup() {
	bats_load_library pci-mwi
}

pc_only() {
	conventional_pci || skip "QEMU's conventional PCI devices are on the pc guest"
}

@test "no PCI driver failed to probe" {
	run bash -c 'dmesg | grep -E "probe of [0-9a-f:.]+ failed"'
	assert_output ""
}

@test "8139cp is bound to the rtl8139 and its network interface exists" {
	pc_only
	slot=$(slots_of_driver 8139cp)
	assert_equal "$slot" "$(slot_of_id 10ec:8139)"
	run ls "$SYSFS_PCI/$slot/net"
	assert_output --regexp '^eth[0-9]+$'
}

@test "sym53c8xx is bound to the lsi53c895a and its SCSI host exists" {
	pc_only
	slot=$(slots_of_driver sym53c8xx)
	assert_equal "$slot" "$(slot_of_id 1000:0012)"
	run ls "$SYSFS_PCI/$slot"
	assert_output --regexp '(^|[[:space:]])host[0-9]+($|[[:space:]])'
	run cat /sys/class/scsi_host/host*/proc_name
	assert_output --partial sym53c8xx
}

@test "ehci-pci is bound to the usb-ehci controller and its USB bus exists" {
	pc_only
	slot=$(slots_of_driver ehci-pci)
	assert_equal "$slot" "$(slot_of_id 8086:24cd)"
	run ls "$SYSFS_PCI/$slot"
	assert_output --regexp '(^|[[:space:]])usb[0-9]+($|[[:space:]])'
}

@test "e1000 is bound to both 82540EM functions, the one behind the bridge included" {
	pc_only
	run slots_of_driver e1000
	assert_equal "${#lines[@]}" 2
	assert_equal "$output" "$(lspci -D -n -d 8086:100e | awk '{ print $1 }')"
	for slot in "${lines[@]}"; do
		run ls "$SYSFS_PCI/$slot/net"
		assert_output --regexp '^eth[0-9]+$'
	done
}

@test "e1000e is bound to both PCI Express functions on q35" {
	[ "$MWI_MACHINE" = q35 ] || skip "the e1000e functions are on the q35 guest"
	run slots_of_driver e1000e
	assert_equal "${#lines[@]}" 2
}
