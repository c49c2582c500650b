#!/usr/bin/env bats
# get, show, on and off against a fake sysfs tree.

setup() {
	load helpers
	standard_tree
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
	assert_equal "$stderr" "mwictl: 00:1f.0: no such device"
}

@test "get of a slot that selects several functions exits 1" {
	run --separate-stderr mwictl get 03.0
	assert_equal "$status" 1
	assert_equal "$stderr" "mwictl: 03.0: matches 2 devices; give one slot"
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
	mkdir -p "$ROOT/kernel/debug/pci"
	echo "0000:00:02.0 off 64 1 1 0 0 -EINVAL x" >"$ROOT/kernel/debug/pci/mwi"
	chmod 0400 "$ROOT/kernel/debug/pci/mwi"
	run as_nobody "$MWICTL" show 00:02.0
	assert_line "diagnostics:     not available: $ROOT/kernel/debug/pci/mwi is readable by root only"
}

@test "show reads the kernel's diagnostics row for the function from debugfs" {
	mkdir -p "$ROOT/kernel/debug/pci"
	cat >"$ROOT/kernel/debug/pci/mwi" <<-'ROWS'
	# platform cache line size: 64 bytes
	# slot hw cls requests refused errors clears last requester
	0000:00:02.0 off 64 1 1 0 0 -EINVAL cp_init_one+0x1c2/0x6a0
	0000:00:03.0 on 64 2 0 0 1 ok sysfs
	0000:01:03.0 ? ? 1 0 1 0 -ENODEV sysfs
	ROWS
	run mwictl show 00:02.0
	assert_line "platform cls:    64 bytes"
	assert_line "requests:        1"
	assert_line "refused:         1"
	assert_line "errors:          0"
	assert_line "clears:          0"
	assert_line "last result:     -EINVAL"
	assert_line "last requester:  cp_init_one+0x1c2/0x6a0"
	assert_equal "$(mwictl show 00:03.0 --json | jq -c '.devices[0].diag')" \
		'{"requests":2,"refused":0,"errors":0,"clears":1,"last_result":"ok","last_requester":"sysfs"}'
	run mwictl show 01:03.0
	assert_line "errors:          1"
	assert_line "last result:     -ENODEV"
}

@test "--debugfs points show at another debugfs" {
	mkdir -p "$BATS_TEST_TMPDIR/dbg/pci"
	echo "0000:00:02.0 off 64 7 7 0 0 -EINVAL x" >"$BATS_TEST_TMPDIR/dbg/pci/mwi"
	run mwictl show 00:02.0 --debugfs "$BATS_TEST_TMPDIR/dbg"
	assert_line "requests:        7"
}

@test "garbage rows in the diagnostics are ignored" {
	mkdir -p "$ROOT/kernel/debug/pci"
	printf 'junk\n0000:00:02.0 off x\n\n' >"$ROOT/kernel/debug/pci/mwi"
	run mwictl show 00:02.0
	assert_success
	assert_line "diagnostics:     not available: $ROOT/kernel/debug/pci/mwi has no row for this function"
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
	assert_equal "$stderr" "mwictl: 00:1f.0: no such device"
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

@test "with several failures the highest exit status wins" {
	add_dev 0000:00:05.0 8086:100e 020000 none
	run mwictl on 00:1f.0 00:05.0 00:02.0
	assert_equal "$status" 5
	rm "$(dev_dir 0000:00:02.0)/mwi"
	mkdir "$(dev_dir 0000:00:02.0)/mwi"
	run mwictl on 00:1f.0 00:05.0 00:02.0
	assert_equal "$status" 6
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
