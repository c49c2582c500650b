#!/usr/bin/env bats
# Kernel lockdown, as distributions ship it (the lockdown LSM): once the
# kernel is locked down, a write to mwi is refused with EPERM, whatever it
# says, before the store looks at the device, and changes nothing; reading
# mwi still works. The mwi store checks security_locked_down() with
# LOCKDOWN_PCI_ACCESS, as the config file's store does. Lockdown cannot
# be lifted and stops module loading, so the emulator is loaded once, the
# kernel is locked down ("integrity") once, and the sim guest runs this
# file last (last= in qemu/guests/sim).

setup_file() {
	bats_load_library pci-mwi
	sim_load
	on=$(sim_slot accepts)
	off=$(sim_slot child)
	write_mwi "$on" '1\n'
	[ -e /sys/kernel/security/lockdown ] ||
		mount -t securityfs securityfs /sys/kernel/security
	echo integrity >/sys/kernel/security/lockdown
	export on off
}

setup() {
	bats_load_library pci-mwi
}

teardown_file() {
	bats_load_library pci-mwi
	sim_unload
}

@test "the guest kernel has the lockdown LSM and is now locked down for integrity" {
	assert_equal "$(cat /sys/kernel/security/lockdown)" "none [integrity] confidentiality"
}

@test "locked down, echo 0 > mwi fails with EPERM and MWI stays on" {
	local before
	before=$(registers "$on")
	run write_mwi "$on" '0\n'
	assert_failure
	assert_output --partial "Operation not permitted"
	assert_equal "$(registers "$on")" "$before"
	assert_equal "$(sim_registers "$on")" "0x0010 64"
}

@test "locked down, echo 1 > mwi fails with EPERM and MWI stays off, the cache line size unwritten" {
	local before
	before=$(registers "$off")
	run write_mwi "$off" '1\n'
	assert_failure
	assert_output --partial "Operation not permitted"
	assert_equal "$(registers "$off")" "$before"
	assert_equal "$(sim_knob "$off" command)" 0x0000
}

@test "locked down, malformed input fails with EPERM too: lockdown is checked before the input" {
	local before
	before=$(registers "$on")
	run write_mwi "$on" 'yes\n'
	assert_failure
	assert_output --partial "Operation not permitted"
	assert_equal "$(registers "$on")" "$before"
}

@test "locked down, reading mwi still works: 1 on the function with MWI on, 0 on the other" {
	assert_equal "$(read_mwi "$on") $(read_mwi "$off")" "1 0"
}

@test "locked down, mwictl off --dry-run predicts the refusal the write gets (exit 4, lockdown named), and mwictl off gets it" {
	run mwictl off --dry-run -s "$on"
	assert_failure 4
	assert_output --partial "the kernel is locked down: integrity"
	run mwictl off -s "$on"
	assert_failure 4
	assert_equal "$(sim_registers "$on")" "0x0010 64"
}
