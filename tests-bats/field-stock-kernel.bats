#!/usr/bin/env bats
# mwictl where most users will first run it: Debian's own stock kernel
# (Debian 13's linux-image-6.12.*-amd64, unpatched, its own modules, loaded by udev by
# modalias as on an installed system) on the pc machine. There is no mwi
# attribute, so mwictl falls back as its man page says: list, show and get
# read the state from config space and say so on standard error (-q
# silences that), on and off refuse with exit status 5, rule warns. lspci
# -vv is the reference for every function.

NOTE="mwictl: the running kernel has no mwi attribute; state read from config space"

setup_file() {
	bats_load_library pci-mwi
	mkdir -p /etc/udev/rules.d
	cp /usr/lib/pci-mwi/80-drivers.rules /etc/udev/rules.d/
	udevd_start
	udevadm trigger --action=add --subsystem-match=pci
	udevadm settle --timeout=120
	udevd_stop
}

setup() {
	bats_load_library pci-mwi
}

# A function with a driver: the e1000 QEMU puts on the root bus.
e1000_slot() {
	slot_of_id 8086:100e
}

@test "the field guest runs Debian's stock kernel, which has no mwi attribute" {
	run uname -r
	assert_output --regexp '^6\.12\.[0-9]+\+deb13-amd64$'
	run grep -c 'Debian' /proc/version
	assert_success
	run compgen -G "$SYSFS_PCI/*/mwi"
	assert_failure
}

@test "udev loaded Debian's own drivers by modalias: 8139cp, e1000 and sym53c8xx are bound" {
	assert_equal "$(driver_of "$(slot_of_id 10ec:8139)")" 8139cp
	assert_equal "$(driver_of "$(e1000_slot)")" e1000
	assert_equal "$(driver_of "$(slot_of_id 1000:0012)")" sym53c8xx
}

@test "mwictl list has one line per function, the same set lspci lists" {
	assert_equal "$(mwictl -q list -n | awk 'NR > 1 { print $1 }')" "$(lspci -D -n | awk '{ print $1 }')"
}

@test "mwictl list's class and device names equal lspci's for every function, also with -nn" {
	assert_equal "$(mwictl_names -q)" "$(lspci_names)"
	assert_equal "$(mwictl_names -q -nn)" "$(lspci_names -nn)"
}

@test "mwictl list's driver is lspci -vv's 'Kernel driver in use' for every function" {
	local slot driver want rows
	rows=$(mwictl -q list -n | awk 'NR > 1 { print $1, $3 }')
	assert_equal "$(printf '%s\n' "$rows" | wc -l)" "$(pci_slots | wc -l)"
	while read -r slot driver; do
		want=$(lspci -vv -s "$slot" | sed -n 's/^\tKernel driver in use: //p')
		assert_equal "$slot $driver" "$slot ${want:--}"
	done <<<"$rows"
}

@test "mwictl get and list read MWI from config space and agree with lspci -vv's MemWINV on every function" {
	local slot listed
	for slot in $(pci_slots); do
		assert_equal "$slot $(mwictl -q get "$slot")" "$slot $(lspci_mwi "$slot")"
		listed=$(mwictl -q list -n -s "$slot" | awk 'NR == 2 { print $4 }')
		assert_equal "$slot $listed" "$slot $([ "$(lspci_mwi "$slot")" = 1 ] && echo on || echo off)"
	done
}

@test "mwictl get and list say once on standard error that the state came from config space" {
	run --separate-stderr mwictl get "$(e1000_slot)"
	assert_success
	assert_equal "$stderr" "$NOTE"
	run --separate-stderr mwictl list
	assert_success
	assert_equal "$stderr" "$NOTE"
}

@test "mwictl -q silences the config-space note and nothing else: the answer is the same" {
	local slot
	slot=$(e1000_slot)
	run --separate-stderr mwictl -q get "$slot"
	assert_success
	assert_equal "$stderr" ""
	assert_equal "$output" "$(mwictl get "$slot" 2>/dev/null)"
}

@test "mwictl show agrees with lspci -vv on driver and cache line size and names config space as the source" {
	local slot cls
	slot=$(e1000_slot)
	run --separate-stderr mwictl show "$slot"
	assert_success
	assert_line "driver:          e1000"
	assert_line "mwi source:      config space (the kernel has no mwi attribute)"
	cls=$(lspci -vv -s "$slot" | sed -n 's/.*Cache Line Size: \([0-9]*\) bytes.*/\1/p')
	assert_line "cache line size: ${cls:-0} bytes"
}

@test "mwictl on and off exit 5 naming the patch series and change no register" {
	local slot before
	slot=$(e1000_slot)
	before=$(registers "$slot")
	run --separate-stderr mwictl on "$slot"
	assert_failure 5
	assert_equal "$stderr" "mwictl: $slot: the running kernel has no mwi attribute (it needs the pci-mwi kernel patch series)"
	run --separate-stderr mwictl off "$slot"
	assert_failure 5
	assert_equal "$(registers "$slot")" "$before"
}

@test "mwictl on --dry-run predicts the real run on this kernel: exit 5" {
	run --separate-stderr mwictl on --dry-run "$(e1000_slot)"
	assert_failure 5
	assert_output ""
}

@test "mwictl rule on SLOT warns that the rules do nothing on this kernel and still writes the rule" {
	local slot
	slot=$(e1000_slot)
	run --separate-stderr mwictl rule on "$slot"
	assert_success
	assert_equal "$stderr" "mwictl: rule: the running kernel has no mwi attribute: the rules do nothing until it has one"
	assert_output --partial "KERNEL==\"$slot\""
	assert_output --partial 'TEST=="mwi"'
}
