#!/usr/bin/env bats
# The guests are what the other tests assume: conventional PCI on pc,
# PCI Express on q35, with QEMU's devices present.

setup() {
	bats_load_library pci-mwi
}

@test "the guest says which machine it is: pc, q35 or nodebugfs" {
	[[ "$MWI_MACHINE" =~ ^(pc|q35|nodebugfs)$ ]]
}

@test "the pc guest is conventional PCI: no function has a PCI Express capability" {
	conventional_pci || skip "conventional PCI is the pc guest"
	run bash -c 'lspci -vv | grep "Express"'
	assert_failure
	assert_output ""
}

@test "the pc guest has a PCI-to-PCI bridge with an e1000 behind it" {
	conventional_pci || skip "the bridge is on the pc guest"
	bridge=$(lspci -D -n | awk '$2 == "0604:" { print $1; exit }')
	[ -n "$bridge" ]
	secondary=$(setpci -s "$bridge" SECONDARY_BUS)
	run lspci -n -s "$(printf '%02x' "0x$secondary"):"
	assert_output --partial "8086:100e"
}

@test "the q35 guest has PCI Express e1000e functions, one behind a root port" {
	[ "$MWI_MACHINE" = q35 ] || skip "PCI Express is the q35 guest"
	run lspci -D -n -d 8086:10d3
	assert_success
	[ "${#lines[@]}" -eq 2 ]
	run bash -c 'lspci -vv -d 8086:10d3 | grep -c "Express (v"'
	assert_output 2
	run lspci -n -s 01:00.0
	assert_output --partial "8086:10d3"
}

@test "the nodebugfs guest runs a kernel without debugfs and without the trace event, and with the mwi attribute" {
	[ "$MWI_MACHINE" = nodebugfs ] || skip "the CONFIG_DEBUG_FS=n kernel is the nodebugfs guest"
	run grep -w debugfs /proc/filesystems
	assert_failure
	[ ! -e /sys/kernel/debug/pci/mwi ]
	tracefs_mount
	[ ! -e "$MWI_EVENT" ]
	[ -e "$(mwi_file "$(input_slot)")" ]
}

@test "the pc and q35 guests' kernel (the sim guest's too) has the pci_mwi_request trace event" {
	[ "$MWI_MACHINE" != nodebugfs ] || skip "the nodebugfs kernel is built without tracing"
	tracefs_mount
	[ -d "$MWI_EVENT" ] || fail "no $MWI_EVENT: sim-trace.bats would skip everything"
	local field
	for field in dev caller old asked new err; do
		grep -Eq "field:[^;]* $field(\[[0-9]+\])?;" "$MWI_EVENT/format" ||
			fail "the event has no field $field: $(cat "$MWI_EVENT/format")"
	done
}
