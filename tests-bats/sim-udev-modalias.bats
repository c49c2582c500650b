#!/usr/bin/env bats
# The ordering an admin's rule depends on, with a driver that is a module:
# systemd-udevd applies a rule's ATTR{mwi} while it processes the "add"
# event and only then runs RUN, where Debian's 80-drivers.rules loads the
# driver by the function's modalias. So the rule reaches the probe of the
# driver that event loads. pci-mwi-probe (1b36:e000, the emulator's
# "accepts" functions) is such a driver: nothing but udev loads it, and
# its probe's answer to pcim_set_mwi() stays in mwi_probe_result.

setup() {
	bats_load_library pci-mwi
	sim_load devices=accepts
	slot=$(sim_slot accepts)
	mkdir -p /etc/udev/rules.d
	cp /usr/lib/pci-mwi/80-drivers.rules /etc/udev/rules.d/
}

teardown() {
	udevd_stop
	rm -f /etc/udev/rules.d/70-mwi.rules /etc/udev/rules.d/80-drivers.rules
	if grep -q '^pci_mwi_probe ' /proc/modules; then
		rmmod pci_mwi_probe
	fi
	sim_unload
}

# Rescan with the rules in place; the driver udev loaded must be bound.
rescan_under_udev() {
	udevd_start
	udev_remove_and_rescan "$slot"
	grep -q '^pci_mwi_probe ' /proc/modules || fail "udev did not load pci_mwi_probe"
	assert_equal "$(driver_of "$slot")" pci-mwi-probe
}

@test "nothing but udev loads pci-mwi-probe: without udevd the rescanned function has no driver" {
	echo 1 >"$SYSFS_PCI/$slot/remove"
	echo 1 >/sys/bus/pci/rescan
	run grep '^pci_mwi_probe ' /proc/modules
	assert_failure
	assert_equal "$(driver_of "$slot")" -
}

@test "the rule of mwictl rule off SLOT reaches the probe of the driver udev loads by modalias: it gets 1 and runs without MWI" {
	write_mwi "$slot" '1\n'
	mwictl rule off "$slot" >/etc/udev/rules.d/70-mwi.rules
	rescan_under_udev
	assert_equal "$(cat "$SYSFS_PCI/$slot/mwi_probe_result")" 1
	assert_equal "$(mwictl get "$slot")" 0
	assert_equal "$(lspci_mwi "$slot")" 0
}

@test "the rule of mwictl rule on -d VENDOR:DEVICE after an off: the driver udev loads gets 0 and runs with MWI" {
	write_mwi "$slot" '0\n'
	mwictl rule on -d 1b36:e000 >/etc/udev/rules.d/70-mwi.rules
	rescan_under_udev
	assert_equal "$(cat "$SYSFS_PCI/$slot/mwi_probe_result")" 0
	assert_equal "$(mwictl get "$slot")" 1
	assert_equal "$(lspci_mwi "$slot")" 1
}

@test "without a rule the driver udev loads gets MWI: the off of the test above comes from the rule alone" {
	write_mwi "$slot" '1\n'
	rescan_under_udev
	assert_equal "$(cat "$SYSFS_PCI/$slot/mwi_probe_result")" 0
}
