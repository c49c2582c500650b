#!/usr/bin/env bats
# mwictl on the patched kernel: it agrees with lspci, the independent
# reference, and reports the kernel's answers with the documented exit codes.

setup() {
	bats_load_library pci-mwi
}

@test "mwictl list has one line per function, the same set lspci lists" {
	assert_equal "$(mwictl list -n | awk 'NR > 1 { print $1 }')" "$(lspci -D -n | awk '{ print $1 }')"
}

@test "mwictl list -n agrees with lspci -n on class and ids for every function" {
	local slot class id
	while read -r slot class _ _ _ id; do
		run lspci -D -n -s "$slot"
		assert_output --regexp "^$slot $class: $id( |$)"
	done < <(mwictl list -n | awk 'NR > 1 { print $1, $2, $3, $4, $5, $6 }')
}

@test "mwictl list agrees with lspci -vv on the MWI state of every function, n/a where mwi is hidden" {
	local slot state want
	for slot in $(pci_slots); do
		state=$(mwictl list -n -s "$slot" | awk 'NR == 2 { print $4 }')
		want=n/a
		if [ -e "$(mwi_file "$slot")" ]; then
			want=$([ "$(lspci_mwi "$slot")" = 1 ] && echo on || echo off)
		fi
		assert_equal "$slot $state" "$slot $want"
	done
}

@test "mwictl list's class and device names equal lspci's for every function, also with -nn" {
	assert_equal "$(mwictl_names)" "$(lspci_names)"
	assert_equal "$(mwictl_names -nn)" "$(lspci_names -nn)"
	assert_equal "$(mwictl_names | wc -l)" "$(pci_slots | wc -l)"
}

@test "mwictl list shows the bound driver of every function" {
	local slot driver want
	while read -r slot driver; do
		want=-
		[ -e "$SYSFS_PCI/$slot/driver" ] && want=$(basename "$(readlink "$SYSFS_PCI/$slot/driver")")
		assert_equal "$slot $driver" "$slot $want"
	done < <(mwictl list -n | awk 'NR > 1 { print $1, $3 }')
}

@test "mwictl get agrees with the mwi attribute for every function, and says n/a where it is hidden" {
	local slot want
	for slot in $(pci_slots); do
		want=n/a
		[ -e "$(mwi_file "$slot")" ] && want=$(cat "$(mwi_file "$slot")")
		assert_equal "$slot $(mwictl get "$slot")" "$slot $want"
	done
}

@test "mwictl on of a QEMU device exits 3, says the device refused MWI, and changes nothing" {
	local slot before
	slot=$(input_slot)
	before=$(registers "$slot")
	run --separate-stderr mwictl on "$slot"
	assert_equal "$status" 3
	assert_equal "$stderr" "mwictl: $slot: device refused MWI"
	assert_equal "$output" ""
	assert_equal "$(registers "$slot")" "$before"
}

@test "mwictl off of a device whose MWI is already off exits 0 and says so" {
	run mwictl off "$(input_slot)"
	assert_success
	assert_output "$(input_slot): MWI already off"
}

@test "mwictl on -d for every QEMU NIC exits 3 with one line per device" {
	local id=8086:100e n
	conventional_pci || id=8086:10d3
	n=$(lspci -n -d "$id" | wc -l)
	run --separate-stderr mwictl on -d "$id"
	assert_equal "$status" 3
	assert_equal "${#stderr_lines[@]}" "$n"
}

@test "mwictl on as user nobody exits 4, permission denied" {
	run --separate-stderr as_nobody mwictl on "$(input_slot)"
	assert_equal "$status" 4
	assert_output ""
	[[ "$stderr" == *"permission denied"* ]]
}

@test "mwictl get as user nobody works" {
	run as_nobody mwictl get "$(input_slot)"
	assert_success
	assert_output 0
}

@test "mwictl show reads the state from the kernel's mwi attribute" {
	run mwictl show "$(input_slot)"
	assert_success
	assert_line "mwi:             off"
	assert_line "mwi source:      sysfs mwi attribute"
}
