#!/usr/bin/env bats
# -F FILE: the functions of an lspci -x or -xxx dump, read through libpci's
# dump access method as lspci -F reads them. There is no kernel there: the
# state is bit 4 of COMMAND in the dump, PCI Express functions (a capability
# in a -xxx dump) are n/a, and a note on stderr says where the state came
# from. The dumps and how they were made: dumps/make-dumps.sh.

setup() {
	load helpers
	DUMPS=$BATS_TEST_DIRNAME/dumps
	# no sysfs at all: a dump needs none
	export MWICTL_SYSFS=$BATS_TEST_TMPDIR/nosys
}

@test "-F lists an lspci -x dump: MWI on and off from COMMAND, the cache line size, and a note" {
	run --separate-stderr mwictl -F "$DUMPS/conventional-x.dump" list -n
	assert_success
	assert_equal "${#lines[@]}" 3
	assert_line --index 1 --regexp '^0000:00:04\.0 +0100 +- +on +64 +1000:0012$'
	assert_line --index 2 --regexp '^0000:00:05\.0 +0200 +- +off +32 +8086:100e$'
	assert_equal "$stderr" "mwictl: access method dump has no mwi attribute; state read from config space"
}

@test "-F names every function of a dump as lspci -F names it from the same dump" {
	local dump
	for dump in conventional-x.dump all-xxx.dump; do
		for n in "" -n -nn; do
			run diff <(lspci -F "$DUMPS/$dump" -D $n 2>/dev/null | sed 's/ (rev [0-9a-f]*)$//') \
				<(mwictl_names -q -F "$DUMPS/$dump" $n)
			assert_success
		done
	done
}

@test "-F gives n/a for a PCI Express function of an lspci -xxx dump, though its bit 4 is set" {
	run --separate-stderr mwictl -F "$DUMPS/all-xxx.dump" list -n
	assert_success
	assert_line --index 1 --regexp '^0000:00:04\.0 .* on +64 '
	assert_line --index 2 --regexp '^0000:00:05\.0 .* off +32 '
	assert_line --index 3 --regexp '^0000:01:00\.0 +0200 +- +n/a +64 +8086:10d3$'
}

@test "get and show read a dump with -F; show names the access method as the source" {
	run --separate-stderr mwictl -F "$DUMPS/all-xxx.dump" get 00:04.0
	assert_success
	assert_output 1
	assert_equal "$stderr" "mwictl: access method dump has no mwi attribute; state read from config space"
	run -0 --separate-stderr mwictl -F "$DUMPS/all-xxx.dump" get 00:05.0
	assert_output 0
	run --separate-stderr mwictl -F "$DUMPS/all-xxx.dump" get 01:00.0
	assert_success
	assert_output n/a
	run --separate-stderr mwictl -F "$DUMPS/all-xxx.dump" show 01:00.0
	assert_success
	assert_line 'mwi:             n/a (PCI Express function: the MWI bit is hardwired to 0)'
	assert_line 'mwi source:      config space (access method dump)'
	assert_line 'diagnostics:     not available: access method dump reads no kernel table (it is read with linux-sysfs only)'
}

@test "--json under -F: mwi_source config, and pcie from the capability in the dump" {
	run --separate-stderr mwictl -F "$DUMPS/all-xxx.dump" list --json
	assert_success
	assert_line --partial '"slot": "0000:00:04.0", "class": "0100"'
	assert_output --partial '"pcie": false, "driver": null, "mwi": "on", "mwi_source": "config"'
	assert_output --partial '"pcie": true, "driver": null, "mwi": null, "mwi_source": "none", "mwi_error": null, "mwi_unavailable": "PCI Express function"'
}

@test "-A dump reads the dump that -F or -O dump.name names, as lspci does" {
	run mwictl -A dump -F "$DUMPS/conventional-x.dump" list -n -q
	assert_success
	assert_line --index 1 --partial '0000:00:04.0'
	run mwictl -A dump -O "dump.name=$DUMPS/conventional-x.dump" get -q 00:05.0
	assert_success
	assert_output 0
}

@test "-q silences the config-space note under -F; the answer stays the same" {
	run --separate-stderr mwictl -q -F "$DUMPS/all-xxx.dump" get 00:04.0
	assert_success
	assert_output 1
	assert_equal "$stderr" ""
}

@test "rule reads a dump with -F: one rule per function, none where MWI cannot exist" {
	run --separate-stderr mwictl -F "$DUMPS/all-xxx.dump" rule 00:04.0
	assert_success
	assert_line 'ACTION=="add", SUBSYSTEM=="pci", KERNEL=="0000:00:04.0", TEST=="mwi", ATTR{mwi}="1"'
	assert_equal "$stderr" ""
	run --separate-stderr mwictl -F "$DUMPS/all-xxx.dump" rule 01:00.0
	assert_failure 3
	assert_equal "$stderr" "mwictl: 0000:01:00.0: no rule: MWI cannot exist on a PCI Express function"
}

@test "a dump that cannot be opened stops mwictl with libpci's message and exit 6, as lspci" {
	run --separate-stderr mwictl -F "$BATS_TEST_TMPDIR/none.dump" list
	assert_failure 6
	assert_equal "$stderr" "mwictl: dump: Cannot open $BATS_TEST_TMPDIR/none.dump: No such file or directory"
}

@test "-F gives ? (Permission denied) where an lspci -x dump ends before the capability list, as lspci says access denied" {
	run --separate-stderr mwictl -F "$DUMPS/pcie-x.dump" list -n
	assert_success
	assert_line --index 1 --regexp '^0000:01:00\.0 +0200 +- +\? \(Permission denied\) +64 +8086:10d3$'
	run lspci -F "$DUMPS/pcie-x.dump" -vv
	assert_line --partial 'Capabilities: <access denied>'
	run --separate-stderr mwictl -F "$DUMPS/pcie-x.dump" get 01:00.0
	assert_failure 4
	assert_output ""
	run -0 mwictl -q -F "$DUMPS/pcie-x.dump" list --json
	assert_output --partial '"pcie": null, "driver": null, "mwi": null, "mwi_source": "config", "mwi_error": "Permission denied", "mwi_unavailable": null'
}

@test "-F and -O dump.name both name the dump: the later one wins, as in lspci" {
	run -0 mwictl -q -F "$DUMPS/conventional-x.dump" -O "dump.name=$DUMPS/all-xxx.dump" list -n
	assert_equal "${#lines[@]}" 4
	assert_equal "$(lspci -F "$DUMPS/conventional-x.dump" -O "dump.name=$DUMPS/all-xxx.dump" | wc -l)" 3
	run -0 mwictl -q -O "dump.name=$DUMPS/all-xxx.dump" -F "$DUMPS/conventional-x.dump" list -n
	assert_equal "${#lines[@]}" 3
	assert_equal "$(lspci -O "dump.name=$DUMPS/all-xxx.dump" -F "$DUMPS/conventional-x.dump" | wc -l)" 2
}
