#!/usr/bin/env bats
# --json: stable keys, valid JSON, null for what cannot be read.

setup() {
	load helpers
	standard_tree
}

@test "list --json is an object with the format version and one device per function, in list order" {
	run mwictl list --json
	assert_success
	assert_equal "$(jq -r '.devices[].slot' <<<"$output")" "$(mwictl_slots)"
	assert_equal "$(jq -c 'keys_unsorted' <<<"$output")" '["version","devices"]'
	assert_equal "$(jq '.version' <<<"$output")" 4
}

@test "list --json has exactly the documented keys, in order" {
	assert_equal "$(mwictl list --json | jq -c '.devices[0] | keys_unsorted')" \
		'["slot","class","class_name","prog_if","vendor","vendor_name","device","device_name","revision","pcie","driver","mwi","mwi_source","mwi_error","mwi_unavailable","cache_line_size"]'
}

@test "list --json values: ids in hex, state words, bytes, null driver when unbound" {
	run mwictl list --json -s 00:03.0
	assert_equal "$(jq -c '.devices[0] | [.class, .prog_if, .vendor, .device, .revision, .pcie, .driver, .mwi, .mwi_source, .mwi_error, .cache_line_size]' <<<"$output")" \
		'["0200","00","8086","100e","01",false,"e1000","on","sysfs",null,64]'
	assert_equal "$(mwictl list --json -s 00:00.0 | jq -c '.devices[0].driver')" null
}

@test "list --json with -n has null names" {
	assert_equal "$(mwictl list --json -n -s 00:03.0 | jq -c '.devices[0] | [.class_name, .vendor_name, .device_name]')" '[null,null,null]'
}

@test "list --json with names has the pci.ids names" {
	assert_equal "$(mwictl list --json -s 00:03.0 | jq -r '.devices[0] | .class_name, .vendor_name, .device_name')" \
		"Ethernet controller
Intel Corporation
82540EM Gigabit Ethernet Controller"
}

@test "device_name is the device's name alone, as lspci -mm gives it, or null where lspci shows a number" {
	pci_ids_tree
	local want got
	want=$(lspci -A linux-sysfs -O "sysfs.path=$ROOT/bus/pci" -D -mm 2>/dev/null |
		awk -F'"' '{ d = $6; if (d ~ /^Device [0-9a-f][0-9a-f][0-9a-f][0-9a-f]$/) d = "null"; print $1 d }')
	got=$(mwictl -q list --json | jq -r '.devices[] | "\(.slot) \(.device_name // "null")"')
	assert_equal "$got" "$want"
}

@test "a class the database knows only by its base class has that name, without a number" {
	add_dev 0000:00:07.0 8086:100e ffff00 0
	add_dev 0000:00:08.0 8086:100e 02ee00 0
	assert_equal "$(mwictl list -s 07.0 | awk 'NR == 2 { print $2, $3, $4 }')" "Unassigned class [ffff]"
	assert_equal "$(mwictl list --json -s 07.0 | jq -r '.devices[0].class_name')" "Unassigned class"
	assert_equal "$(mwictl list --json -s 08.0 | jq -r '.devices[0].class_name')" "Network controller"
}

@test "no name in list --json carries a number, on a tree with every class and unknown IDs" {
	pci_ids_tree
	run --separate-stderr mwictl -q list --json
	assert_success
	assert_equal "$(jq -r '.devices[] | .class_name, .vendor_name, .device_name' <<<"$output" |
		grep -cE '\[[0-9a-f]{4}\]|^(Device|Class|Vendor) [0-9a-f]{4}$' || true)" 0
}

@test "list --json with -nn has the names and the numbers" {
	assert_equal "$(mwictl list --json -nn -s 00:03.0 | jq -c '.devices[0] | [.class, .class_name, .vendor, .vendor_name, .device, .device_name]')" \
		'["0200","Ethernet controller","8086","Intel Corporation","100e","82540EM Gigabit Ethernet Controller"]'
	assert_equal "$(mwictl show --json -nn 00:03.0 | jq -r '.devices[0].vendor_name')" "Intel Corporation"
}

@test "names with bytes that are not UTF-8 (a Latin-1 pci.ids) are valid JSON, each bad byte U+FFFD" {
	local ids=$BATS_TEST_TMPDIR/latin1.ids
	printf '8086  Soci\xe9t\xe9 \xc3\n\t100e  Carte r\xe9seau \xf4\x90\x80\x80 \xed\xa0\x80 \xc3\xa9\nC 02  Network\n\t00  Ethernet\n' >"$ids"
	run --separate-stderr mwictl list --json -s 00:03.0 -i "$ids" -O hwdb.disable=1
	assert_success
	python3 -m json.tool <<<"$output" >/dev/null || fail "not valid JSON: $output"
	assert_equal "$(jq -r '.devices[0] | .vendor_name, .device_name' <<<"$output")" \
		"Soci�t� �
Carte r�seau ���� ��� é"
	assert_output --partial '"Soci\ufffdt\ufffd \ufffd"'
}

@test "show --json with names that are not UTF-8 is valid JSON" {
	local ids=$BATS_TEST_TMPDIR/latin1.ids
	printf '8086  Soci\xe9t\xe9\n\t100e  Carte\xff\nC 02  R\xe9seau\n\t00  Ethernet\n' >"$ids"
	run mwictl show --json 00:03.0 -i "$ids" -O hwdb.disable=1
	assert_success
	python3 -m json.tool <<<"$output" >/dev/null || fail "not valid JSON: $output"
	assert_equal "$(jq -r '.devices[0] | .class_name, .vendor_name, .device_name' <<<"$output")" \
		"Ethernet
Soci�t�
Carte�"
}
