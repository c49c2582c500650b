#!/usr/bin/env bats
# Persistence with the real thing: Debian's systemd-udevd runs the rules
# that "mwictl rule on|off" prints, and an accepting emulated function that
# is removed and rescanned comes back with MWI on, or with MWI and the
# policy off, so that the driver bound next gets no MWI.

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
	mwictl rule on "$slot" >/etc/udev/rules.d/70-mwi.rules
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

@test "systemd-udevd with the rule of mwictl rule off SLOT turns MWI off at add, and the next probe gets no MWI" {
	write_mwi "$slot" '1\n'
	mwictl rule off "$slot" >/etc/udev/rules.d/70-mwi.rules
	udevd_start
	udev_remove_and_rescan "$slot"
	assert_equal "$(mwictl get "$slot")" 0
	sim_bind "$slot"
	assert_equal "$(sim_knob "$slot" probe_result)" "0 0"
	assert_equal "$(mwictl get "$slot")" 0
	sim_unbind "$slot"
}
