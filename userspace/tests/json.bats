#!/usr/bin/env bats
# --json: stable keys, valid JSON, null for what cannot be read.

setup() {
	load helpers
	standard_tree
}

@test "list --json is a valid array with one object per function, in list order" {
	run mwictl list --json
	assert_success
	assert_equal "$(jq -r '.[].slot' <<<"$output")" "$(mwictl_slots)"
}

@test "list --json has exactly the documented keys, in order" {
	assert_equal "$(mwictl list --json | jq -c '.[0] | keys_unsorted')" \
		'["slot","class","class_name","vendor","device","device_name","driver","mwi","mwi_source","mwi_error","mwi_unavailable","cache_line_size"]'
}

@test "list --json values: ids in hex, state words, bytes, null driver when unbound" {
	run mwictl list --json -s 00:03.0
	assert_equal "$(jq -c '.[0] | [.class, .vendor, .device, .driver, .mwi, .mwi_source, .mwi_error, .cache_line_size]' <<<"$output")" \
		'["0200","8086","100e","e1000","on","sysfs",null,64]'
	assert_equal "$(mwictl list --json -s 00:00.0 | jq -c '.[0].driver')" null
}

@test "list --json with -n has null names" {
	assert_equal "$(mwictl list --json -n -s 00:03.0 | jq -c '.[0] | [.class_name, .device_name]')" '[null,null]'
}

@test "list --json with names has the pci.ids names" {
	assert_equal "$(mwictl list --json -s 00:03.0 | jq -r '.[0].device_name')" \
		"Intel Corporation 82540EM Gigabit Ethernet Controller"
}

@test "an unreadable state is null with the reason in mwi_error" {
	rm "$(dev_dir 0000:00:02.0)/mwi"
	mkdir "$(dev_dir 0000:00:02.0)/mwi"
	assert_equal "$(mwictl list --json -s 02.0 | jq -c '.[0] | [.mwi, .mwi_error]')" '[null,"Is a directory"]'
}

@test "names with quotes and backslashes are escaped" {
	local long
	long='dr"iv\er'
	mkdir -p "$ROOT/bus/pci/drivers/$long"
	ln -s "../../../bus/pci/drivers/$long" "$(dev_dir 0000:00:00.0)/driver"
	assert_equal "$(mwictl list --json -s 00.0 -n | jq -r '.[0].driver')" "$long"
}

@test "an empty selection is an empty array" {
	assert_equal "$(mwictl list --json -s 7:)" "[]"
}

@test "show --json is one object with the list keys and diag" {
	run mwictl show 00:03.0 --json
	assert_success
	assert_equal "$(jq -c 'keys_unsorted' <<<"$output")" \
		'["slot","class","class_name","vendor","device","device_name","driver","mwi","mwi_source","mwi_error","mwi_unavailable","cache_line_size","diag"]'
	assert_equal "$(jq -c '.diag' <<<"$output")" null
}
