#!/usr/bin/env bats
# Drivers for PCI Express hardware must not log a refused MWI request: the
# emulator impersonates a PCI Express RTL8168 (Realtek's IDs, class
# Ethernet) for r8169, loaded as a module. The probe then fails for want
# of an MMIO BAR, after the point where it asks for MWI: that message
# proves the driver got past it (6.12's dev_err_probe() puts the errno
# before it: "error -ENODEV: no MMIO resource found").

setup() {
	bats_load_library pci-mwi
	sim_load devices=rtl8168
	slot=$(sim_slot rtl8168)
}

teardown() {
	rmmod r8169 2>/dev/null || true
	sim_unload
}

@test "r8169 probing a PCI Express RTL8168 logs no MWI message" {
	[ -n "$slot" ]
	run lspci -n -s "$slot"
	assert_output --partial "10ec:8168"
	dmesg -c >/dev/null
	modprobe r8169
	run dmesg
	assert_line --regexp "$slot: (error -ENODEV: )?no MMIO resource found$"
	refute_output --regexp '[Mm][Ww][Ii]|Mem-Wr-Inval'
}

@test "the emulated RTL8168 is PCI Express and has no mwi attribute" {
	run lspci -vv -s "$slot"
	assert_output --partial "Express (v2) Endpoint"
	[ ! -e "$(mwi_file "$slot")" ]
}
