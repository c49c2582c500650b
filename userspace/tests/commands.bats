#!/usr/bin/env bats
# get, show, on and off against a fake sysfs tree.

setup() {
	load helpers
	standard_tree
}

# diag_table ROW...: <debugfs>/pci/mwi in the fake tree, with the two
# comment lines of series v3 and the rows given.
diag_table() {
	mkdir -p "$ROOT/kernel/debug/pci"
	{
		echo "# platform cache line size: 64 bytes"
		echo "# slot possible hw cls policy driver"
		printf '%s\n' "$@"
	} >"$ROOT/kernel/debug/pci/mwi"
}

@test "get prints 1 for a function with MWI on and 0 for one with it off" {
	run mwictl get 00:03.0
	assert_success
	assert_output 1
	run mwictl get 0000:00:02.0
	assert_output 0
}

@test "get of a slot that does not exist exits 2" {
	run --separate-stderr mwictl get 00:1f.0
	assert_equal "$status" 2
	assert_equal "$stderr" "mwictl: '00:1f.0': no such device"
}

@test "get of a slot that selects several functions exits 1" {
	run --separate-stderr mwictl get 03.0
	assert_equal "$status" 1
	assert_equal "$stderr" "mwictl: '03.0': matches 2 devices; give one slot"
}

@test "get of an unreadable state exits 6 with the reason" {
	rm "$(dev_dir 0000:00:02.0)/mwi"
	mkdir "$(dev_dir 0000:00:02.0)/mwi"
	run --separate-stderr mwictl get 02.0
	assert_equal "$status" 6
	assert_equal "$stderr" "mwictl: 0000:00:02.0: cannot read MWI state: Is a directory"
}

@test "show prints every field, and says diagnostics are missing because debugfs is not mounted" {
	run mwictl show 00:02.0
	assert_success
	assert_equal "$output" "slot:            0000:00:02.0
class:           Ethernet controller
device:          Realtek Semiconductor Co., Ltd. RTL-8100/8101L/8139 PCI Fast Ethernet Adapter
driver:          8139cp
mwi:             off
mwi source:      sysfs mwi attribute
cache line size: 64 bytes
platform cls:    unknown (from the diagnostics)
diagnostics:     not available: debugfs is not mounted (no $ROOT/kernel/debug/pci/mwi)"
}

@test "show says the diagnostics are missing because the kernel has none when debugfs has no pci/mwi" {
	mkdir -p "$ROOT/kernel/debug/usb"
	run mwictl show 00:02.0
	assert_line "diagnostics:     not available: no $ROOT/kernel/debug/pci/mwi: the running kernel lacks the pci-mwi series or CONFIG_DEBUG_FS"
}

@test "show says the diagnostics are root's only when the table cannot be read" {
	needs_root
	diag_table "0000:00:02.0 yes off 64 drivers 8139cp"
	chmod 0400 "$ROOT/kernel/debug/pci/mwi"
	run as_nobody "$MWICTL" show 00:02.0
	assert_line "diagnostics:     not available: $ROOT/kernel/debug/pci/mwi is readable by root only"
}

@test "show reads the kernel's diagnostics row for the function from debugfs: the policy in words" {
	diag_table "0000:00:02.0 yes off 64 drivers 8139cp" \
		"0000:00:03.0 yes on 64 off e1000" \
		"0000:01:03.0 yes ? ? drivers -"
	run mwictl show 00:02.0
	assert_success
	assert_line "platform cls:    64 bytes"
	assert_line "policy:          drivers choose"
	refute_line --partial "diagnostics:"
	run mwictl show 00:03.0
	assert_line "policy:          off (drivers get no MWI)"
}

@test "show --json has the row's fields in diag, null for what is - or was not read" {
	diag_table "0000:00:02.0 yes off 64 drivers 8139cp" \
		"0000:01:03.0 no d3cold d3cold off -" \
		"10000:00:01.0 yes ? ? drivers -" \
		"0000:00:00.0 yes suspended suspended drivers -"
	assert_equal "$(mwictl show 00:02.0 --json | jq -c '.devices[0].diag')" \
		'{"possible":true,"hw":"off","cache_line_size":64,"policy":"drivers","driver":"8139cp"}'
	assert_equal "$(mwictl show 01:03.0 --json | jq -c '.devices[0].diag')" \
		'{"possible":false,"hw":"d3cold","cache_line_size":null,"policy":"off","driver":null}'
	assert_equal "$(mwictl show 10000:00:01.0 --json | jq -c '.devices[0].diag')" \
		'{"possible":true,"hw":"?","cache_line_size":null,"policy":"drivers","driver":null}'
	assert_equal "$(mwictl show 00:00.0 --json | jq -c '.devices[0].diag')" \
		'{"possible":true,"hw":"suspended","cache_line_size":null,"policy":"drivers","driver":null}'
}

@test "--debugfs points show at another debugfs" {
	mkdir -p "$BATS_TEST_TMPDIR/dbg/pci"
	printf '# slot possible hw cls policy driver\n0000:00:02.0 yes off 64 off -\n' \
		>"$BATS_TEST_TMPDIR/dbg/pci/mwi"
	run mwictl show 00:02.0 --debugfs "$BATS_TEST_TMPDIR/dbg"
	assert_line "policy:          off (drivers get no MWI)"
}

@test "garbage rows in the diagnostics are ignored" {
	diag_table junk "0000:00:02.0 off x" "" "0000:00:02.0 maybe off 64 drivers -" \
		"0000:00:02.0 yes off 64k drivers -" "0000:00:02.0 yes off 64 drivers - extra"
	run mwictl show 00:02.0
	assert_success
	assert_line "diagnostics:     not available: $ROOT/kernel/debug/pci/mwi has no row for this function"
}

@test "a table of series v2 (other columns) is not misread: show says so" {
	mkdir -p "$ROOT/kernel/debug/pci"
	cat >"$ROOT/kernel/debug/pci/mwi" <<-'ROWS'
	# platform cache line size: 64 bytes
	# slot hw cls requests refused errors clears last requester
	0000:00:02.0 off 64 1 1 0 0 -EINVAL cp_init_one+0x1c2/0x6a0
	ROWS
	run mwictl show 00:02.0
	assert_success
	assert_line "diagnostics:     not available: $ROOT/kernel/debug/pci/mwi has other columns than the \"slot possible hw cls policy driver\" this mwictl reads"
	refute_line --partial "policy:"
}

@test "on writes 1 to the function's mwi attribute and nothing else" {
	run mwictl on 00:02.0
	assert_success
	assert_output "0000:00:02.0: MWI turned on"
	assert_equal "$(cat "$(dev_dir 0000:00:02.0)/mwi")" 1
	assert_equal "$(cat "$(dev_dir 0000:01:03.0)/mwi")" 0
}

@test "off writes 0 to every function that -d selects" {
	run mwictl off -d 8086:100e
	assert_success
	assert_equal "$(cat "$(dev_dir 0000:00:03.0)/mwi")" 0
	assert_equal "$(cat "$(dev_dir 0000:01:03.0)/mwi")" 0
	assert_equal "$(cat "$(dev_dir 10000:00:01.0)/mwi")" 1
}

@test "on with several slots writes each" {
	run mwictl on 00:02.0 01:03.0
	assert_success
	assert_equal "$(cat "$(dev_dir 0000:00:02.0)/mwi") $(cat "$(dev_dir 0000:01:03.0)/mwi")" "1 1"
}

@test "on of a slot that does not exist exits 2 and still acts on the others" {
	run --separate-stderr mwictl on 00:1f.0 00:02.0
	assert_equal "$status" 2
	assert_equal "$stderr" "mwictl: '00:1f.0': no such device"
	assert_equal "$(cat "$(dev_dir 0000:00:02.0)/mwi")" 1
}

@test "on -d with no match exits 2" {
	run mwictl on -d 1234:5678
	assert_equal "$status" 2
	assert_output --partial "no such device"
}

@test "on without the kernel's mwi attribute exits 5 and names the patch series" {
	new_tree
	add_dev 0000:00:05.0 8086:100e 020000 none
	run --separate-stderr mwictl on 00:05.0
	assert_equal "$status" 5
	assert_equal "$stderr" "mwictl: 0000:00:05.0: the running kernel has no mwi attribute (it needs the pci-mwi kernel patch series)"
	run cat "$(dev_dir 0000:00:05.0)/mwi"
	assert_failure
}

@test "a write that fails with another error exits 6 with the reason" {
	rm "$(dev_dir 0000:00:02.0)/mwi"
	mkdir "$(dev_dir 0000:00:02.0)/mwi"
	run --separate-stderr mwictl off 00:02.0
	assert_equal "$status" 6
	assert_equal "$stderr" "mwictl: 0000:00:02.0: Is a directory"
}

@test "with several failures the most severe status wins: 6, 4, 5, 2, 3, then 7" {
	needs_root
	add_dev 0000:00:05.0 8086:100e 020000 none
	add_dev 0000:02:00.0 8086:10d3 020000 none
	echo "2.5 GT/s PCIe" >"$(dev_dir 0000:02:00.0)/current_link_speed"
	run mwictl on --dry-run 02:00.0 00:02.0
	assert_equal "$status" 3
	run mwictl on --dry-run 00:1f.0 02:00.0 00:02.0
	assert_equal "$status" 2
	run mwictl on 00:1f.0 00:05.0 00:02.0
	assert_equal "$status" 5
	run as_nobody "$MWICTL" on 00:05.0 00:00.0
	assert_equal "$status" 4
	rm "$(dev_dir 0000:00:02.0)/mwi"
	mkdir "$(dev_dir 0000:00:02.0)/mwi"
	run mwictl on 00:1f.0 00:05.0 00:02.0
	assert_equal "$status" 6
}

@test "a refusal that holds for every function (no mwi attribute) is said once, naming how many" {
	new_tree
	local i
	for i in 1 2 3 4; do
		add_dev "0000:00:0$i.0" 1af4:1000 020000 none
	done
	run --separate-stderr mwictl off -d 1af4:
	assert_equal "$status" 5
	assert_equal "$stderr" "mwictl: 0000:00:01.0 and 3 more functions: the running kernel has no mwi attribute (it needs the pci-mwi kernel patch series)"
	run --separate-stderr mwictl off 00:01.0
	assert_equal "$stderr" "mwictl: 0000:00:01.0: the running kernel has no mwi attribute (it needs the pci-mwi kernel patch series)"
}

@test "permission denied on several functions is said once" {
	needs_root
	run --separate-stderr as_nobody "$MWICTL" on 00:00.0 00:02.0 00:03.0
	assert_equal "$status" 4
	assert_equal "$stderr" "mwictl: 0000:00:00.0 and 2 more functions: permission denied (needs root with CAP_SYS_ADMIN)"
	assert_equal "$(cat "$(dev_dir 0000:00:00.0)/mwi")" 0
}

@test "get and show on a kernel without the series say so on stderr, and the answer stays on stdout" {
	new_tree
	MWI_CONFIG=1 add_dev 0000:00:05.0 8086:100e 020000 none
	run --separate-stderr mwictl get 00:05.0
	assert_success
	assert_equal "$output" 1
	assert_equal "$stderr" "mwictl: the running kernel has no mwi attribute; state read from config space"
	run --separate-stderr mwictl show 00:05.0
	assert_success
	assert_line "mwi source:      config space (the kernel has no mwi attribute)"
	assert_equal "$stderr" "mwictl: the running kernel has no mwi attribute; state read from config space"
}

@test "-q silences the config-space note for list, show and get, and their answers stay the same" {
	new_tree
	MWI_CONFIG=1 add_dev 0000:00:05.0 8086:100e 020000 none
	local cmd loud
	for cmd in "list -n" "show 00:05.0" "get 00:05.0"; do
		# shellcheck disable=SC2086
		loud=$(mwictl $cmd 2>/dev/null)
		# shellcheck disable=SC2086
		run --separate-stderr mwictl -q $cmd
		assert_success
		assert_equal "$stderr" ""
		assert_equal "$output" "$loud"
	done
}

@test "-q silences the note for on and off on a kernel without the series, not their error" {
	new_tree
	MWI_CONFIG=1 add_dev 0000:00:05.0 8086:100e 020000 none
	run --separate-stderr mwictl -q on 00:05.0
	assert_equal "$status" 5
	assert_equal "$stderr" "mwictl: 0000:00:05.0: the running kernel has no mwi attribute (it needs the pci-mwi kernel patch series)"
}

@test "show on a kernel without the series names the missing series, not the unmounted debugfs" {
	new_tree
	add_dev 0000:00:05.0 8086:100e 020000 none
	run --separate-stderr mwictl show 00:05.0
	assert_success
	assert_line "diagnostics:     not available: the running kernel lacks the pci-mwi series (no function has the mwi attribute)"
	mkdir -p "$ROOT/kernel/debug/usb"
	run --separate-stderr mwictl show 00:05.0 --json
	assert_equal "$(jq -r '.devices[0].diag_unavailable' <<<"$output")" \
		"the running kernel lacks the pci-mwi series (no function has the mwi attribute)"
}

@test "show on a kernel with the series, on a function without the attribute, blames the unmounted debugfs" {
	add_dev 0000:02:00.0 8086:10d3 020000 none
	echo "2.5 GT/s PCIe" >"$(dev_dir 0000:02:00.0)/current_link_speed"
	run mwictl show 02:00.0
	assert_line "diagnostics:     not available: debugfs is not mounted (no $ROOT/kernel/debug/pci/mwi)"
}
