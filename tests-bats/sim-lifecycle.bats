#!/usr/bin/env bats
# The emulator's bus comes and goes cleanly: ordinary devices to the PCI
# core and lspci, nothing left after rmmod, reload works, open files fail
# cleanly after removal.

setup() {
	bats_load_library pci-mwi
}

teardown() {
	sim_unload
}

@test "the default personalities appear as 8 functions in a domain above ffff" {
	sim_load
	run sim_slots
	assert_equal "${#lines[@]}" 8
	for slot in "${lines[@]}"; do
		[[ "$slot" =~ ^1[0-9a-f]{4}:0[01]:[0-9a-f]{2}\.[0-7]$ ]] || fail "bad slot $slot"
	done
}

@test "lspci sees the emulated functions with consistent IDs, class and header type" {
	sim_load
	local slot p
	for p in accepts refuses stuck cls-ro cls-odd pcie; do
		slot=$(sim_slot "$p")
		run lspci -n -s "$slot"
		assert_output --regexp " 0880: 1b36:e00[0-5] \(rev 01\)$"
		assert_equal "$(setpci -s "$slot" HEADER_TYPE)" 00
	done
	run lspci -n -s "$(sim_slot bridge)"
	assert_output --partial " 0604: 1b36:e006"
	assert_equal "$(setpci -s "$(sim_slot bridge)" HEADER_TYPE)" 01
	run lspci -vv -s "$(sim_slot pcie)"
	assert_output --partial "Express (v2) Endpoint"
}

@test "the bridge's secondary bus holds the device behind it" {
	sim_load
	local secondary
	secondary=$(setpci -s "$(sim_slot bridge)" SECONDARY_BUS)
	assert_equal "$(sim_slot child)" "${SIM_DOMAIN:-$(sim_slot bridge | cut -d: -f1)}:$secondary:00.0"
}

@test "rmmod removes every emulated function and the debugfs directory" {
	sim_load
	sim_unload
	run bash -c "ls /sys/bus/pci/devices | grep -v '^0000:'"
	assert_output ""
	[ ! -e "$SIM_DEBUGFS" ]
}

@test "the module reloads with other personalities, three times" {
	for _ in 1 2 3; do
		sim_load devices=refuses,accepts*3
		run sim_slots
		assert_equal "${#lines[@]}" 4
		assert_equal "$(sim_knob "$(sim_slot accepts)" personality)" accepts
		sim_unload
	done
}

@test "256 functions load, eight per slot, and all have an mwi attribute" {
	sim_load 'devices=accepts*128,refuses*128'
	run sim_slots
	assert_equal "${#lines[@]}" 256
	run bash -c "ls /sys/bus/pci/devices/1*/mwi | wc -l"
	assert_output 256
}

@test "bad module parameters fail to load and leave nothing behind" {
	for arg in devices=nonsense devices=accepts*0 devices=accepts*257 'devices=accepts,,refuses' devices=; do
		run insmod "$SIM_KO" "$arg"
		assert_failure
		[ ! -e "$SIM_DEBUGFS" ] || fail "debugfs left after insmod $arg"
	done
	run bash -c "ls /sys/bus/pci/devices | grep -v '^0000:'"
	assert_output ""
}

@test "an mwi file opened before rmmod fails with ENODEV afterwards, reads and writes alike" {
	sim_load
	local slot
	slot=$(sim_slot accepts)
	exec {fd}<>"$(mwi_file "$slot")"
	sim_unload
	run bash -c "echo 1 >&$fd"
	assert_failure
	assert_output --partial "No such device"
	run bash -c "cat <&$fd"
	assert_failure
	assert_output --partial "No such device"
	exec {fd}>&-
}

@test "a removed and rescanned emulated function comes back with its state" {
	sim_load
	local slot
	slot=$(sim_slot accepts)
	write_mwi "$slot" '1\n'
	echo 1 >"$SYSFS_PCI/$slot/remove"
	[ ! -e "$SYSFS_PCI/$slot" ]
	echo 1 >/sys/bus/pci/rescan
	assert_equal "$(cat "$(mwi_file "$slot")")" 1
}
