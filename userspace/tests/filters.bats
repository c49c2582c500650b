#!/usr/bin/env bats
# -s and -d take lspci's syntax and select exactly what lspci selects.

setup() {
	load helpers
	standard_tree
}

# mwictl and lspci agree on the slots selected by the same arguments.
assert_same_as_lspci() {
	local want
	want=$(lspci_slots "$@")
	assert_equal "$(mwictl_slots "$@")" "$want"
}

@test "-s with a full slot selects what lspci selects" { assert_same_as_lspci -s 0000:00:02.0; }
@test "-s with bus:dev selects what lspci selects" { assert_same_as_lspci -s 00:03; }
@test "-s with dev.fn only selects what lspci selects (every bus)" { assert_same_as_lspci -s 03.0; }
@test "-s with .fn only selects what lspci selects" { assert_same_as_lspci -s .0; }
@test "-s with bus: selects what lspci selects" { assert_same_as_lspci -s 01:; }
@test "-s with a domain above 0xffff selects what lspci selects" { assert_same_as_lspci -s 10000:00:01.0; }
@test "-s with domain:: selects the whole domain, as lspci does" { assert_same_as_lspci -s 10000::; }
@test "-s with a wildcard * selects what lspci selects" { assert_same_as_lspci -s '*:*.0'; }
@test "-d vendor:device selects what lspci selects" { assert_same_as_lspci -d 8086:100e; }
@test "-d vendor: selects what lspci selects" { assert_same_as_lspci -d 8086:; }
@test "-d :device selects what lspci selects" { assert_same_as_lspci -d :8139; }
@test "-d with a class selects what lspci selects" { assert_same_as_lspci -d ::0604; }
@test "-s and -d together select what lspci selects" { assert_same_as_lspci -s 00: -d 8086:; }
@test "a filter that matches nothing lists only the header, as lspci lists nothing" {
	assert_equal "$(lspci_slots -s 05:)" ""
	run mwictl list -s 05:
	assert_success
	assert_equal "${#lines[@]}" 1
}

@test "-s 1:2:3:4 is rejected with lspci's message and exit 1" {
	run --separate-stderr mwictl list -s 1:2:3:4
	assert_equal "$status" 1
	assert_equal "$stderr" "mwictl: -s '1:2:3:4': Too many fields"
}

@test "-s with a bad function is rejected with lspci's message and exit 1" {
	run --separate-stderr mwictl list -s 00:02.9
	assert_equal "$status" 1
	assert_equal "$stderr" "mwictl: -s '00:02.9': Invalid function number"
}

@test "-d with a bad vendor is rejected with lspci's message and exit 1" {
	run --separate-stderr mwictl list -d xyz:1
	assert_equal "$status" 1
	assert_equal "$stderr" "mwictl: -d 'xyz:1': Invalid vendor ID"
}

@test "a bad SLOT for get is rejected with exit 1, not 'no such device'" {
	run mwictl get 00:40.0
	assert_equal "$status" 1
	assert_output --partial "Invalid slot number"
}

# Every spec: the same selection as lspci, or lspci's error message and exit 1.
assert_spec_as_lspci() { # -s|-d SPEC
	local want_err
	want_err=$(lspci -A linux-sysfs -O "sysfs.path=$ROOT/bus/pci" -D -n "$1" "$2" 2>&1 >/dev/null)
	run --separate-stderr mwictl list -n "$1" "$2"
	if [ -n "$want_err" ]; then
		assert_equal "$status" 1
		assert_equal "${stderr##*: }" "${want_err##*: }"
	else
		assert_success
		assert_equal "$(printf '%s\n' "${lines[@]:1}" | awk '{ print $1 }')" "$(lspci_slots "$1" "$2")"
	fi
}

@test "58 -s and -d specs, good and bad, select what lspci selects or fail with its message" {
	local spec n=0
	pci_ids_tree
	while read -r opt spec; do
		assert_spec_as_lspci "$opt" "$spec" || { echo "# at $opt $spec" >&3; return 1; }
		n=$((n + 1))
	done <"$BATS_TEST_DIRNAME/filter-specs"
	assert_equal "$n" 58
}
