#!/usr/bin/env bats
# Persistence with the real thing: Debian's systemd-udevd runs the rules
# that "mwictl rule" prints, and an accepting emulated function that is
# removed and rescanned comes back with MWI on.

setup() {
	bats_load_library pci-mwi
	sim_load
	slot=$(sim_slot accepts)
	write_mwi "$slot" '0\n'
	mkdir -p /etc/udev/rules.d
}

teardown() {
	udevd_stop
	rm -f /etc/udev/rules.d/70-mwi.rules
	sim_unload
}

@test "without a rule a rescanned function keeps MWI off: udevd alone does not set it" {
	udevd_start
	udev_remove_and_rescan "$slot"
	assert_equal "$(mwictl get "$slot")" 0
}

@test "systemd-udevd with the rule of mwictl rule SLOT turns MWI on after remove and rescan" {
	mwictl rule "$slot" >/etc/udev/rules.d/70-mwi.rules
	udevd_start
	udev_remove_and_rescan "$slot"
	assert_equal "$(mwictl get "$slot")" 1
}

@test "systemd-udevd with the rule of mwictl rule -d VENDOR:DEVICE turns MWI on after remove and rescan" {
	mwictl rule -d "$(lspci -n -s "$slot" | awk '{ print $3 }')" >/etc/udev/rules.d/70-mwi.rules
	udevd_start
	udev_remove_and_rescan "$slot"
	assert_equal "$(mwictl get "$slot")" 1
	assert_equal "$(sim_knob "$slot" personality)" accepts
}
