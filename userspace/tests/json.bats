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
