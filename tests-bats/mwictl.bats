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
	local slot driver
	while read -r slot driver; do
		assert_equal "$slot $driver" "$slot $(driver_of "$slot")"
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

@test "mwictl on -d of the e1000 functions, bound to e1000, exits 7 naming e1000 for each and changes nothing" {
	conventional_pci || skip "the e1000 functions are on the pc guest"
	local slot before
	before=$(for slot in $(lspci -D -n -d 8086:100e | awk '{ print $1 }'); do registers "$slot"; done)
	run --separate-stderr mwictl on -d 8086:100e
	assert_equal "$status" 7
	assert_equal "$output" ""
	assert_equal "$stderr" "$(lspci -D -n -d 8086:100e |
		awk '{ print "mwictl: " $1 ": a driver is bound (e1000): MWI unchanged (unbind it first, or --rebind)" }')"
	assert_equal "$(for slot in $(lspci -D -n -d 8086:100e | awk '{ print $1 }'); do registers "$slot"; done)" "$before"
}

@test "mwictl off --dry-run of the e1000 functions predicts the real run: exit 7 and the same lines" {
	conventional_pci || skip "the e1000 functions are on the pc guest"
	local real
	real=$(mwictl off -d 8086:100e 2>&1 || echo "status $?")
	run mwictl off --dry-run -d 8086:100e
	assert_equal "$status" 7
	assert_equal "$output
status 7" "$real"
}

@test "mwictl on --dry-run as root without CAP_SYS_ADMIN exits 4 as the real run does, and with only CAP_SYS_ADMIN predicts success" {
	local slot
	slot=$(input_slot)
	run --separate-stderr as_root_without_sys_admin mwictl on --dry-run "$slot"
	assert_equal "$status" 4
	assert_equal "$stderr" "mwictl: $slot: permission denied (needs root with CAP_SYS_ADMIN)"
	run --separate-stderr as_root_without_sys_admin mwictl on "$slot"
	assert_equal "$status" 4
	run as_root_with_only_sys_admin mwictl off --dry-run "$slot"
	assert_success
	assert_output "$slot: MWI already off"
}

@test "mwictl on -d of the PCI Express e1000e functions exits 3 with one refusal line for all of them" {
	local first more
	[ "$MWI_MACHINE" = q35 ] || skip "the e1000e functions are on the q35 guest"
	first=$(lspci -D -n -d 8086:10d3 | awk 'NR == 1 { print $1 }')
	more=$(($(lspci -D -n -d 8086:10d3 | wc -l) - 1))
	[ "$more" -ge 1 ] || fail "the q35 guest has fewer than two e1000e functions"
	run --separate-stderr mwictl on -d 8086:10d3
	assert_equal "$status" 3
	assert_equal "$stderr" "mwictl: $first and $more more function$([ "$more" = 1 ] || echo s): device refused MWI (PCI Express function: the MWI bit is hardwired to 0)"
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
