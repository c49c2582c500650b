#!/usr/bin/env bats
# The admin guide's "modprobe ordering" (Drivers in the initramfs, built
# in, or already loaded): an install line in /etc/modprobe.d runs mwictl
# before the module loads, whoever asks modprobe for it, so the driver's
# probe meets what mwictl set; a function added while the module is loaded
# meets the driver before any of that. pci-mwi-probe (1b36:e000, the
# emulator's "accepts" functions) asks for MWI in its probe and keeps what
# pcim_set_mwi() and pci_mwi_enabled() said in mwi_probe_result. Debian's
# modprobe (kmod) is /usr/lib/pci-mwi/modprobe here: busybox's, on PATH,
# ignores install lines.

MODPROBE=/usr/lib/pci-mwi/modprobe

setup() {
	bats_load_library pci-mwi
	sim_load devices=accepts
	slot=$(sim_slot accepts)
	mkdir -p /etc/modprobe.d
}

teardown() {
	rm -f /etc/modprobe.d/mwi.conf
	if grep -q '^pci_mwi_probe ' /proc/modules; then
		rmmod pci_mwi_probe
	fi
	sim_unload
}

# The admin guide's install line, for pci-mwi-probe and mwictl $1.
install_line() {
	printf 'install pci_mwi_probe %s %s -q -d 1b36:e000; %s --ignore-install pci_mwi_probe $CMDLINE_OPTS\n' \
		"$(command -v mwictl)" "$1" "$MODPROBE" >/etc/modprobe.d/mwi.conf
}

@test "without an install line the driver modprobe loads asks for MWI and gets it" {
	"$MODPROBE" pci_mwi_probe
	assert_equal "$(driver_of "$slot")" pci-mwi-probe
	assert_equal "$(cat "$SYSFS_PCI/$slot/mwi_probe_result")" "0 1"
	assert_equal "$(mwictl get "$slot")" 1
}

@test "the admin guide's install line runs mwictl off before the module loads: the driver's probe gets no MWI" {
	install_line off
	"$MODPROBE" pci_mwi_probe
	assert_equal "$(driver_of "$slot")" pci-mwi-probe
	assert_equal "$(cat "$SYSFS_PCI/$slot/mwi_probe_result")" "0 0"
	assert_equal "$(mwictl get "$slot")" 0
}

@test "with the module already loaded, a function added again meets its driver before anything else: the install line does not run" {
	"$MODPROBE" pci_mwi_probe
	install_line off
	echo 1 >"$SYSFS_PCI/$slot/remove"
	echo 1 >/sys/bus/pci/rescan
	assert_equal "$(driver_of "$slot")" pci-mwi-probe
	assert_equal "$(cat "$SYSFS_PCI/$slot/mwi_probe_result")" "0 1"
	assert_equal "$(mwictl get "$slot")" 1
}
