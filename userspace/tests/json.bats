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
	assert_equal "$(jq '.version' <<<"$output")" 3
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
Intel Corporation 82540EM Gigabit Ethernet Controller"
}

@test "names the database does not have are null, not made up" {
	add_dev 0000:00:07.0 8086:fffe ee1200 0
	add_dev 0000:00:08.0 fff0:0001 020000 0
	assert_equal "$(mwictl list --json -O hwdb.disable=1 -s 07.0 | jq -c '.devices[0] | [.class_name, .vendor_name, .device_name]')" \
		'[null,"Intel Corporation",null]'
	assert_equal "$(mwictl list --json -O hwdb.disable=1 -s 08.0 | jq -c '.devices[0] | [.class_name, .vendor_name, .device_name]')" \
		'["Ethernet controller",null,null]'
}

@test "pcie is true where the function has PCI Express link attributes, prog_if and revision from sysfs" {
	add_dev 0000:00:09.0 8086:10d3 0c0330 0
	echo "2.5 GT/s PCIe" >"$(dev_dir 0000:00:09.0)/current_link_speed"
	printf '0x2a\n' >"$(dev_dir 0000:00:09.0)/revision"
	assert_equal "$(mwictl list --json -s 09.0 | jq -c '.devices[0] | [.pcie, .prog_if, .revision]')" '[true,"30","2a"]'
}

@test "an unreadable state is null with the reason in mwi_error" {
	rm "$(dev_dir 0000:00:02.0)/mwi"
	mkdir "$(dev_dir 0000:00:02.0)/mwi"
	assert_equal "$(mwictl list --json -s 02.0 | jq -c '.devices[0] | [.mwi, .mwi_error]')" '[null,"Is a directory"]'
}

@test "names with quotes and backslashes are escaped" {
	local long
	long='dr"iv\er'
	mkdir -p "$ROOT/bus/pci/drivers/$long"
	ln -s "../../../bus/pci/drivers/$long" "$(dev_dir 0000:00:00.0)/driver"
	assert_equal "$(mwictl list --json -s 00.0 -n | jq -r '.devices[0].driver')" "$long"
}

@test "an empty selection is an empty devices array" {
	assert_equal "$(mwictl list --json -s 7:)" '{"version": 3, "devices": []}'
}

@test "show --json has one device with the list keys, the platform cache line size and diag" {
	run mwictl show 00:03.0 --json
	assert_success
	assert_equal "$(jq -c '[.version, (.devices | length)]' <<<"$output")" '[3,1]'
	assert_equal "$(jq -c '.devices[0] | keys_unsorted' <<<"$output")" \
		'["slot","class","class_name","prog_if","vendor","vendor_name","device","device_name","revision","pcie","driver","mwi","mwi_source","mwi_error","mwi_unavailable","cache_line_size","platform_cache_line_size","diag","diag_unavailable"]'
	assert_equal "$(jq -c '.devices[0] | [.platform_cache_line_size, .diag, .diag_unavailable]' <<<"$output")" \
		"[null,null,\"debugfs is not mounted (no $ROOT/kernel/debug/pci/mwi)\"]"
}
