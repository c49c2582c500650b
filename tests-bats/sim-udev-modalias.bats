#!/usr/bin/env bats
# The ordering an admin's rule depends on, with a driver that is a module:
# systemd-udevd applies a rule's ATTR{mwi} while it processes the "add"
# event and only then runs RUN, where Debian's 80-drivers.rules loads the
# driver by the function's modalias. So the rule reaches the probe of the
# driver that event loads. pci-mwi-probe (1b36:e000, the emulator's
# "accepts" functions) is such a driver: nothing but udev loads it, and
# its probe's answer to pcim_set_mwi() and pci_mwi_enabled() stays in
# mwi_probe_result. The pci_mwi_request trace event shows the order: the
# rule's sysfs write, then the probe's request, which is refused by the
# policy the rule's "0" set, before any access to PCI_COMMAND; or, after a
# "1", the PCI core turns off what the rule turned on before the probe
# (local_pci_probe), and the driver, which asks, gets MWI back.

PROBE_REQUESTER='mwi_probe_probe\+0x[0-9a-f]+/0x[0-9a-f]+ \[pci_mwi_probe\]'
CORE_PROBE_REQUESTER='(local_pci_probe|pci_device_probe)\+0x[0-9a-f]+/0x[0-9a-f]+'

setup() {
	bats_load_library pci-mwi
	tracefs_mount
	[ -d "$MWI_EVENT" ] || skip "no $MWI_EVENT: this kernel has no tracing (CONFIG_FTRACE)"
	sim_load devices=accepts
	slot=$(sim_slot accepts)
	mkdir -p /etc/udev/rules.d
	cp /usr/lib/pci-mwi/80-drivers.rules /etc/udev/rules.d/
}

teardown() {
	[ -d "$MWI_EVENT" ] || return 0
	udevd_stop
	mwi_trace_stop
	rm -f /etc/udev/rules.d/70-mwi.rules /etc/udev/rules.d/80-drivers.rules
	if grep -q '^pci_mwi_probe ' /proc/modules; then
		rmmod pci_mwi_probe
	fi
	sim_unload
}

# Rescan with the rules in place, tracing from the rescan on; the driver
# udev loaded must be bound.
rescan_under_udev() {
	udevd_start
	mwi_trace_start
	udev_remove_and_rescan "$slot"
	grep -q '^pci_mwi_probe ' /proc/modules || fail "udev did not load pci_mwi_probe"
	assert_equal "$(driver_of "$slot")" pci-mwi-probe
}

@test "nothing but udev loads pci-mwi-probe, which depmod indexed by its modalias: without udevd no driver binds" {
	run grep -c ' pci_mwi_probe$' "/lib/modules/$(uname -r)/modules.alias"
	assert_output 1
	echo 1 >"$SYSFS_PCI/$slot/remove"
	echo 1 >/sys/bus/pci/rescan
	run grep '^pci_mwi_probe ' /proc/modules
	assert_failure
	assert_equal "$(driver_of "$slot")" -
}

@test "without a rule the driver udev loads turns MWI on itself: its request is the only one and finds MWI off" {
	write_mwi "$slot" '0\n'
	rescan_under_udev
	assert_events "$slot requester=$PROBE_REQUESTER old=0 asked=1 new=1 err=0"
	assert_equal "$(cat "$SYSFS_PCI/$slot/mwi_probe_result")" "0 1"
}

@test "the rule of mwictl rule off SLOT reaches the probe of the driver udev loads by modalias: it gets 0 and runs without MWI" {
	write_mwi "$slot" '1\n'
	mwictl rule off "$slot" >/etc/udev/rules.d/70-mwi.rules
	rescan_under_udev
	assert_events "$slot requester=$SYSFS_REQUESTER old=1 asked=0 new=0 err=0" \
		"$slot requester=$PROBE_REQUESTER old=-1 asked=1 new=-1 err=0"
	assert_equal "$(cat "$SYSFS_PCI/$slot/mwi_probe_result")" "0 0"
	assert_equal "$(mwictl get "$slot")" 0
	assert_equal "$(lspci_mwi "$slot")" 0
}

@test "the rule of mwictl rule on -d VENDOR:DEVICE leaves MWI to the driver udev loads: the core turns the rule's MWI off before the probe, and the driver that asks gets it" {
	write_mwi "$slot" '0\n'
	mwictl rule on -d 1b36:e000 >/etc/udev/rules.d/70-mwi.rules
	rescan_under_udev
	assert_events "$slot requester=$SYSFS_REQUESTER old=0 asked=1 new=1 err=0" \
		"$slot requester=$CORE_PROBE_REQUESTER old=1 asked=0 new=0 err=0" \
		"$slot requester=$PROBE_REQUESTER old=0 asked=1 new=1 err=0"
	assert_equal "$(cat "$SYSFS_PCI/$slot/mwi_probe_result")" "0 1"
	assert_equal "$(mwictl get "$slot")" 1
}
