#!/usr/bin/env bats
# -A METHOD picks libpci's access method by name, as lspci -A does. Only
# linux-sysfs, the default, has the kernel's mwi attribute.

setup() {
	load helpers
	standard_tree
}

@test "-A help lists libpci's access methods exactly as lspci -A help does, and exits 0" {
	run mwictl -A help
	assert_success
	assert_output "$(lspci -A help)"
}

@test "-A with an unknown method is refused with exit 1 and names mwictl -A help" {
	run --separate-stderr mwictl -A bogus list
	assert_failure 1
	assert_equal "$output" ""
	assert_equal "$stderr" "mwictl: -A 'bogus': unknown access method (mwictl -A help lists them)"
	run --separate-stderr mwictl -A bogus get 00:03.0
	assert_failure 1
}

@test "-A linux-sysfs is the default: the kernel's mwi attribute, under --sysfs" {
	run mwictl list -n
	local plain=$output
	run --separate-stderr mwictl -A linux-sysfs list -n
	assert_success
	assert_output "$plain"
	assert_equal "$stderr" ""
	run mwictl -A linux-sysfs show 00:03.0
	assert_line 'mwi source:      sysfs mwi attribute'
}

@test "-A dump without a dump is refused with exit 1" {
	run --separate-stderr mwictl -A dump list
	assert_failure 1
	assert_equal "${stderr%%$'\n'*}" "mwictl: -A dump needs the dump: -F FILE"
}

@test "-F with another access method than dump is refused with exit 1" {
	run --separate-stderr mwictl -A linux-proc -F "$BATS_TEST_DIRNAME/dumps/all-xxx.dump" list
	assert_failure 1
	assert_equal "${stderr%%$'\n'*}" "mwictl: option '-F' reads a dump: not with -A linux-proc"
}

# A /proc/bus/pci as a user other than root reads it: the kernel gives
# such a user the first 64 bytes of config space, without the capabilities.
# One PCI Express function (capability list at 0x40), COMMAND bit 4 set.
user_proc_tree() {
	PROC=$BATS_TEST_TMPDIR/proc
	mkdir -p "$PROC/01"
	printf '0100\t808610d3\t0%s\te1000e\n' "$(printf '\t0%.0s' {1..14})" >"$PROC/devices"
	python3 - "$PROC/01/00.0" <<'PY'
import sys
c = bytearray(64)
c[0:4] = bytes([0x86, 0x80, 0xd3, 0x10]); c[4:6] = (0x0417).to_bytes(2, "little")
c[6] = 0x10; c[8] = 1; c[9:12] = (0x020000).to_bytes(3, "little"); c[12] = 16
c[0x34] = 0x40
open(sys.argv[1], "wb").write(c)
PY
}

@test "-A linux-proc without the capability list (a user, not root): the state is ?, not off, as lspci says access denied" {
	user_proc_tree
	run -0 lspci -A linux-proc -O "proc.path=$PROC" -vv
	assert_line --partial 'Capabilities: <access denied>'
	run --separate-stderr mwictl -A linux-proc -O "proc.path=$PROC" list -n
	assert_success
	assert_line --index 1 --regexp '^0000:01:00\.0 +0200 +e1000e +\? \(Permission denied\) +64 +8086:10d3$'
	run --separate-stderr mwictl -A linux-proc -O "proc.path=$PROC" get 01:00.0
	assert_failure 4
	assert_equal "$stderr" "mwictl: 0000:01:00.0: cannot read MWI state: permission denied"
}
