#!/usr/bin/env bats
# The mwi store takes one whole boolean word and nothing else, and only
# from a process with CAP_SYS_ADMIN. Every rejected write leaves PCI_COMMAND
# and the cache line size as they were.

setup() {
	bats_load_library pci-mwi
	slot=$(input_slot)
	[ -n "$slot" ]
}

@test "an empty line is rejected with EINVAL" { assert_mwi_rejects "$slot" '\n'; }
@test "2 is rejected with EINVAL" { assert_mwi_rejects "$slot" '2'; }
@test "-1 is rejected with EINVAL" { assert_mwi_rejects "$slot" '-1\n'; }
@test "0x1 is rejected with EINVAL, not taken as off" { assert_mwi_rejects "$slot" '0x1\n'; }
@test "01 is rejected with EINVAL" { assert_mwi_rejects "$slot" '01\n'; }
@test "+1 is rejected with EINVAL" { assert_mwi_rejects "$slot" '+1\n'; }
@test "'yes please' is rejected with EINVAL, not taken as on" { assert_mwi_rejects "$slot" 'yes please\n'; }
@test "'1 1' is rejected with EINVAL" { assert_mwi_rejects "$slot" '1 1\n'; }
@test "onn is rejected with EINVAL" { assert_mwi_rejects "$slot" 'onn\n'; }
@test "o is rejected with EINVAL" { assert_mwi_rejects "$slot" 'o\n'; }
@test "tru is rejected with EINVAL" { assert_mwi_rejects "$slot" 'tru\n'; }
@test "enable is rejected with EINVAL" { assert_mwi_rejects "$slot" 'enable\n'; }
@test "a leading space is rejected with EINVAL" { assert_mwi_rejects "$slot" ' 1\n'; }
@test "a trailing space is rejected with EINVAL" { assert_mwi_rejects "$slot" '1 \n'; }
@test "a leading tab is rejected with EINVAL" { assert_mwi_rejects "$slot" '\t0\n'; }
@test "two trailing newlines are rejected with EINVAL" { assert_mwi_rejects "$slot" '1\n\n'; }
@test "a carriage return is rejected with EINVAL" { assert_mwi_rejects "$slot" '1\r\n'; }
@test "an embedded NUL after 1 is rejected with EINVAL" { assert_mwi_rejects "$slot" '1\0'; }
@test "an embedded NUL after off is rejected with EINVAL" { assert_mwi_rejects "$slot" 'off\0\n'; }
@test "a lone NUL is rejected with EINVAL" { assert_mwi_rejects "$slot" '\0'; }
@test "4 KiB of junk is rejected with EINVAL" {
	assert_mwi_rejects "$slot" "$(printf 'x%.0s' $(seq 4096))"
}
@test "4 KiB of 1s is rejected with EINVAL" {
	assert_mwi_rejects "$slot" "$(printf '1%.0s' $(seq 4096))"
}
@test "4095 bytes of junk (PAGE_SIZE - 1) are rejected with EINVAL" {
	assert_mwi_rejects "$slot" "$(printf 'y%.0s' $(seq 4095))"
}
@test "4097 bytes (more than PAGE_SIZE) are rejected with EINVAL" {
	assert_mwi_rejects "$slot" "$(printf '0%.0s' $(seq 4097))"
}
@test "truee is rejected with EINVAL" { assert_mwi_rejects "$slot" 'truee\n'; }
@test "offf is rejected with EINVAL" { assert_mwi_rejects "$slot" 'offf\n'; }
@test "a trailing tab is rejected with EINVAL" { assert_mwi_rejects "$slot" '0\t'; }

@test "a write split in two is parsed per write(2): 0 succeeds, the lone newline is EINVAL" {
	local before
	before=$(registers "$slot")
	run bash -c 'exec 3>"$1"; printf 0 >&3 && printf "\n" >&3' _ "$(mwi_file "$slot")"
	assert_failure
	assert_output --partial "Invalid argument"
	assert_equal "$(registers "$slot")" "$before"
}

# Every accepted word in lower, upper and capitalised case, with and
# without a newline. MWI is refused on QEMU's devices, so an "on" word that
# was parsed fails with EOPNOTSUPP, never EINVAL; an "off" word succeeds.
spellings() {
	local w
	for w in "$@"; do
		printf '%s\n' "$w" "${w^^}" "${w^}"
	done
}

@test "every on-word in every case is accepted (and refused by the device with EOPNOTSUPP)" {
	local w nl before
	before=$(registers "$slot")
	for w in $(spellings 1 y yes on true); do
		for nl in '' '\n'; do
			run write_mwi "$slot" "$w$nl"
			assert_failure
			assert_output --partial "Operation not supported"
		done
	done
	assert_equal "$(registers "$slot")" "$before"
}

@test "every off-word in every case is accepted and succeeds" {
	local w nl
	for w in $(spellings 0 n no off false); do
		for nl in '' '\n'; do
			run write_mwi "$slot" "$w$nl"
			assert_success
		done
	done
}

@test "user nobody (uid 65534) can read mwi" {
	run as_nobody cat "$(mwi_file "$slot")"
	assert_success
	assert_output 0
}

@test "user nobody (uid 65534) cannot write mwi: EACCES, nothing changed" {
	local before
	before=$(registers "$slot")
	run as_nobody bash -c 'echo 0 > "$1"' _ "$(mwi_file "$slot")"
	assert_failure
	assert_output --partial "Permission denied"
	assert_equal "$(registers "$slot")" "$before"
}

@test "root in a new user namespace can read mwi but not write it: EPERM, nothing changed" {
	local before
	before=$(registers "$slot")
	run unshare --user --map-root-user bash -c 'cat "$1" && echo 0 > "$1"' _ "$(mwi_file "$slot")"
	assert_failure
	assert_line --index 0 0
	assert_output --partial "Operation not permitted"
	assert_equal "$(registers "$slot")" "$before"
}

@test "root without CAP_SYS_ADMIN can read mwi" {
	run as_root_without_caps cat "$(mwi_file "$slot")"
	assert_success
	assert_output 0
}

@test "root without CAP_SYS_ADMIN cannot write mwi: EPERM before the input is looked at" {
	local before
	before=$(registers "$slot")
	for input in 0 1 junk; do
		run as_root_without_caps bash -c 'echo "$2" > "$1"' _ "$(mwi_file "$slot")" "$input"
		assert_failure
		assert_output --partial "Operation not permitted"
	done
	assert_equal "$(registers "$slot")" "$before"
}
