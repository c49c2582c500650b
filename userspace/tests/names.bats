#!/usr/bin/env bats
# Names come from libpci: every function reads as lspci prints it, whatever
# the host has (pci.ids where the distribution keeps it, pci.ids.gz, udev's
# hwdb), and with -n and -nn.

setup() {
	load helpers
	pci_ids_tree
	IDS=$BATS_TEST_TMPDIR/pci.ids
	cp /usr/share/misc/pci.ids "$IDS"
}

@test "every function's names equal lspci's with the host's own setup (hwdb when udev is installed)" {
	assert_equal "$(mwictl_names | wc -l)" 465
	assert_equal "$(mwictl_names)" "$(lspci_names)"
}

@test "every function's names equal lspci's from a given pci.ids with hwdb disabled" {
	assert_equal "$(mwictl_names -i "$IDS" -O hwdb.disable=1)" \
		"$(lspci_names -i "$IDS" -O hwdb.disable=1)"
}

@test "a gzipped pci.ids gives the same names as the plain one" {
	gzip -9 -k "$IDS"
	assert_equal "$(mwictl_names -i "$IDS.gz" -O hwdb.disable=1)" \
		"$(lspci_names -i "$IDS" -O hwdb.disable=1)"
	assert_equal "$(mwictl_names -i "$IDS.gz" -O hwdb.disable=1 | sed -n 1p)" \
		"$(lspci_names -i "$IDS.gz" -O hwdb.disable=1 | sed -n 1p)"
}

@test "-nn prints names and numbers exactly as lspci -nn" {
	assert_equal "$(mwictl_names -nn -i "$IDS" -O hwdb.disable=1)" \
		"$(lspci_names -nn -i "$IDS" -O hwdb.disable=1)"
	assert_equal "$(mwictl_names -nn | sed -n 1p)" "$(lspci_names -nn | sed -n 1p)"
}

@test "-n prints the numbers exactly as lspci -n" {
	assert_equal "$(mwictl_names -n)" "$(lspci_names -n)"
}

@test "an ids file of one's own is used, CRLF lines and all, as lspci uses it" {
	local ids=$BATS_TEST_TMPDIR/own.ids
	new_tree
	printf '%s\r\n' '# test ids' '8086  Vendor A' '	100e  Device A1' '' '	1237  Device A2' \
		'10ec  Vendor B' '	8139  Device B1' 'C 02  Network' '	00  Ethernet' >"$ids"
	add_dev 0000:00:05.0 8086:1237 020000 0
	add_dev 0000:00:06.0 10ec:100e 028000 0
	assert_equal "$(mwictl_names -i "$ids" -O hwdb.disable=1)" \
		"$(lspci_names -i "$ids" -O hwdb.disable=1)"
	assert_equal "$(mwictl_names -i "$ids" -O hwdb.disable=1 | sed -n 2p)" \
		"0000:00:06.0 Network [0280]: Vendor B Device 100e"
}

@test "without a readable ids file and hwdb names are lspci's numeric forms" {
	assert_equal "$(mwictl_names -i "$BATS_TEST_TMPDIR/missing" -O hwdb.disable=1 2>/dev/null)" \
		"$(lspci_names -i "$BATS_TEST_TMPDIR/missing" -O hwdb.disable=1)"
	assert_equal "$(mwictl_names -i "$BATS_TEST_TMPDIR/missing" -O hwdb.disable=1 2>/dev/null | sed -n 1p)" \
		"0000:00:00.0 Class 0077: Device 0731:9100"
}

@test "MWICTL_PCI_IDS is the ids file when -i is not given" {
	new_tree
	add_dev 0000:00:05.0 8086:1237 020000 0
	printf '8086  Vendor A\n\t1237  Device A2\n' >"$BATS_TEST_TMPDIR/env.ids"
	MWICTL_PCI_IDS=$BATS_TEST_TMPDIR/env.ids run mwictl_names -O hwdb.disable=1
	assert_output "0000:00:05.0 Class 0200: Vendor A Device A2"
}

@test "an unknown -O parameter exits 1 with lspci's list pointed to" {
	run --separate-stderr mwictl list -O no.such=1
	assert_equal "$status" 1
	assert_equal "$stderr" "mwictl: -O 'no.such=1': unknown parameter 'no.such' (see lspci -O help)"
}

@test "-O sysfs.path is refused with exit 1 naming --sysfs: listing and writing use one tree" {
	run --separate-stderr mwictl -O "sysfs.path=$BATS_TEST_TMPDIR/other" list
	assert_failure 1
	assert_equal "$stderr" "mwictl: -O 'sysfs.path=$BATS_TEST_TMPDIR/other': give the sysfs tree with --sysfs DIR"
}
