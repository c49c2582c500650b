#!/usr/bin/env bats
# mwictl list: one aligned line per function, sorted like lspci.

setup() {
	load helpers
	standard_tree
}

@test "list prints a header and one line per function, sorted by domain, bus, device, function" {
	run mwictl list -n
	assert_success
	assert_equal "${#lines[@]}" 6
	assert_line --index 0 --regexp '^SLOT +CLASS +DRIVER +MWI +CLS +DEVICE$'
	assert_equal "$(mwictl_slots)" "$(printf '%s\n' 0000:00:00.0 0000:00:02.0 0000:00:03.0 0000:01:03.0 10000:00:01.0)"
}

@test "mwictl with no command is mwictl list" {
	assert_equal "$(mwictl)" "$(mwictl list)"
}

@test "list -n shows class, ids, driver, state and cache line size in bytes" {
	run mwictl list -n
	assert_line --index 2 --regexp '^0000:00:02\.0 +0200 +8139cp +off +64 +10ec:8139$'
	assert_line --index 3 --regexp '^0000:00:03\.0 +0200 +e1000 +on +64 +8086:100e$'
	assert_line --index 1 --regexp '^0000:00:00\.0 +0600 +- +off +0 +8086:1237$'
	assert_line --index 5 --regexp '^10000:00:01\.0 +0604 +- +on +128 +1b36:0001$'
}

@test "list shows names from pci.ids without -n" {
	run mwictl list -s 00:03.0
	assert_line --index 1 --partial "Ethernet controller"
	assert_line --index 1 --partial "Intel Corporation 82540EM Gigabit Ethernet Controller"
}

@test "list columns are aligned: every line puts MWI at the same offset" {
	local header off line
	run mwictl list
	header=${lines[0]}
	off=${header%%MWI*}
	for line in "${lines[@]:1}"; do
		[[ "${line:${#off}:1}" =~ [o?] ]] || fail "MWI column misaligned in: $line"
	done
}

@test "an unreadable mwi attribute shows '?' with the reason" {
	rm "$(dev_dir 0000:00:02.0)/mwi"
	mkdir "$(dev_dir 0000:00:02.0)/mwi"
	run mwictl list -n -s 02.0
	assert_success
	assert_line --index 1 --regexp '^0000:00:02\.0 +0200 +8139cp +\? \(Is a directory\) +64 +10ec:8139$'
}

@test "a garbage mwi value shows '?' and never a guess" {
	printf '2\n' >"$(dev_dir 0000:00:02.0)/mwi"
	run mwictl list -n -s 02.0
	assert_line --index 1 --partial '? (Invalid argument)'
}

@test "without the kernel's mwi attribute the state comes from COMMAND in config, and stderr says so" {
	new_tree
	MWI_CONFIG=1 add_dev 0000:00:05.0 8086:100e 020000 none
	add_dev 0000:00:06.0 8086:100e 020000 none
	run --separate-stderr mwictl list -n
	assert_success
	assert_line --index 1 --regexp '^0000:00:05\.0 .* on '
	assert_line --index 2 --regexp '^0000:00:06\.0 .* off '
	[[ "$stderr" == *"no mwi attribute; state read from config space"* ]]
}

@test "a truncated config file gives '?' for the cache line size and, without mwi, for the state" {
	new_tree
	add_dev 0000:00:05.0 8086:100e 020000 none
	head -c 3 /dev/zero >"$(dev_dir 0000:00:05.0)/config"
	run --separate-stderr mwictl list -n
	assert_success
	assert_line --index 1 --regexp '^0000:00:05\.0 +0200 +- +\? \(Input/output error\) +\? +8086:100e$'
}

@test "a missing vendor file stops mwictl as it stops lspci: exit 6 and libpci's message naming the file" {
	rm "$(dev_dir 0000:00:02.0)/vendor"
	run --separate-stderr mwictl list -s 02.0
	assert_failure 6
	assert_equal "$stderr" "mwictl: Cannot open $(dev_dir 0000:00:02.0)/vendor: No such file or directory"
	run --separate-stderr lspci -A linux-sysfs -O "sysfs.path=$ROOT/bus/pci"
	assert_failure
	assert_equal "$stderr" "lspci: Cannot open $(dev_dir 0000:00:02.0)/vendor: No such file or directory"
}

@test "garbage in vendor, device and class files reads as lspci reads it" {
	printf 'zz\n' >"$(dev_dir 0000:00:02.0)/vendor"
	printf '0x123456789\n' >"$(dev_dir 0000:00:02.0)/class"
	run mwictl list -n -s 02.0
	assert_success
	assert_equal "$(mwictl_names -n | grep '^0000:00:02.0 ')" "$(lspci_names -n | grep '^0000:00:02.0 ')"
}

@test "an entry that is not a function stops mwictl as it stops lspci: exit 6 and libpci's message" {
	mkdir "$ROOT/bus/pci/devices/not-a-slot"
	run --separate-stderr mwictl list -n
	assert_failure 6
	assert_equal "$stderr" "mwictl: sysfs_scan: Couldn't parse entry name not-a-slot"
	run --separate-stderr lspci -A linux-sysfs -O "sysfs.path=$ROOT/bus/pci"
	assert_failure
	assert_equal "$stderr" "lspci: sysfs_scan: Couldn't parse entry name not-a-slot"
}

@test "a missing sysfs tree is an I/O error (exit 6) naming the directory" {
	run mwictl --sysfs "$BATS_TEST_TMPDIR/nowhere" list
	assert_equal "$status" 6
	assert_output --partial "nowhere/bus/pci/devices: No such file or directory"
}

@test "an empty bus lists only the header" {
	new_tree
	run mwictl list
	assert_success
	assert_equal "${#lines[@]}" 1
}

@test "300 functions are all listed, in order" {
	local b d
	new_tree
	for b in 0 1 2; do
		for d in $(seq 0 99); do
			mkdir -p "$(dev_dir "$(printf '0000:%02x:%02x.%x' "$b" "$((d % 32))" "$((d / 32))")")"
		done
	done
	for dir in "$ROOT"/bus/pci/devices/*; do
		printf '0x8086\n' >"$dir/vendor"; printf '0x100e\n' >"$dir/device"
		printf '0x020000\n' >"$dir/class"; printf '0x01\n' >"$dir/revision"
		printf '0\n' >"$dir/mwi"
	done
	run mwictl_slots
	assert_equal "${#lines[@]}" 300
	assert_equal "$output" "$(ls "$ROOT/bus/pci/devices" | sort -t: -k2,2 -k3,3)"
}

@test "a 200-character driver name is cut to fit, not overflowed" {
	local long
	long=$(printf 'd%.0s' $(seq 200))
	mkdir -p "$ROOT/bus/pci/drivers/$long"
	ln -s "../../../bus/pci/drivers/$long" "$(dev_dir 0000:00:00.0)/driver"
	run mwictl list -n -s 00.0
	assert_success
	assert_line --index 1 --partial "$(printf 'd%.0s' $(seq 63)) "
}

@test "--sysfs takes precedence over MWICTL_SYSFS" {
	run env MWICTL_SYSFS=/nonexistent "$MWICTL" --sysfs "$ROOT" list -n
	assert_success
	assert_equal "${#lines[@]}" 6
}
