#!/usr/bin/env bats
# The mwi store takes "1" or "0", with one newline at most, and nothing
# else, and only from a process with CAP_SYS_ADMIN; it checks both before
# it looks at the device or its driver. Every input goes to the store in
# one write(2) (write_mwi), and every rejected write leaves PCI_COMMAND and
# the cache line size as they were.

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
@test "two trailing newlines in one write are rejected with EINVAL" { assert_mwi_rejects "$slot" '1\n\n'; }
@test "a carriage return is rejected with EINVAL" { assert_mwi_rejects "$slot" '1\r\n'; }
@test "an embedded NUL after 1 is rejected with EINVAL" { assert_mwi_rejects "$slot" '1\0'; }
@test "an embedded NUL between 0 and the newline is rejected with EINVAL" { assert_mwi_rejects "$slot" '0\0\n'; }
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

# The words kstrtobool() knows, in lower, upper and capitalised case,
# with and without a newline: none of them is "1" or "0".
spellings() {
	local w
	for w in "$@"; do
		printf '%s\n' "$w" "${w^^}" "${w^}"
	done
}

# assert_words_rejected WORD...: each spelling of each word, with and
# without a newline, fails with EINVAL; COMMAND and CLS stay as they were.
assert_words_rejected() {
	local w nl before
	before=$(registers "$slot")
	for w in $(spellings "$@"); do
		for nl in '' '\n'; do
			run write_mwi "$slot" "$w$nl"
			assert_failure
			[[ "$output" == *"Invalid argument"* ]] || fail "'$w$nl' was not rejected with EINVAL: $output"
		done
	done
	assert_equal "$(registers "$slot")" "$before"
}

@test "y, yes, on and true in every case are rejected with EINVAL: only 1 turns MWI on" {
	assert_words_rejected y yes on true
}

@test "n, no, off and false in every case are rejected with EINVAL: only 0 turns MWI off" {
	assert_words_rejected n no off false
}

# QEMU's devices refuse MWI: a "1" that was parsed fails with EOPNOTSUPP,
# never EINVAL.
@test "1, with and without a newline, is accepted (and refused by the device with EOPNOTSUPP)" {
	local nl before
	before=$(registers "$slot")
	for nl in '' '\n'; do
		run write_mwi "$slot" "1$nl"
		assert_failure
		assert_output --partial "Operation not supported"
	done
	assert_equal "$(registers "$slot")" "$before"
}

@test "0, with and without a newline, is accepted and succeeds" {
	local nl
	for nl in '' '\n'; do
		run write_mwi "$slot" "0$nl"
		assert_success
		assert_output ""
	done
}

# The rtl8139, bound to 8139cp: input is checked before the driver is.
@test "malformed input to a function with a bound driver fails with EINVAL, not EBUSY" {
	conventional_pci || skip "the rtl8139 bound to 8139cp is on the pc guest"
	local bound w
	bound=$(slot_of_id 10ec:8139)
	assert_equal "$(driver_of "$bound")" 8139cp
	for w in 'y\n' '2' '1\n\n' '0\0'; do
		assert_mwi_rejects "$bound" "$w"
	done
}

@test "root without CAP_SYS_ADMIN writing to a function with a bound driver gets EPERM, not EBUSY" {
	conventional_pci || skip "the rtl8139 bound to 8139cp is on the pc guest"
	local bound before
	bound=$(slot_of_id 10ec:8139)
	before=$(registers "$bound")
	run write_mwi "$bound" '0\n' as_root_without_caps
	assert_failure
	assert_output --partial "Operation not permitted"
	assert_equal "$(registers "$bound")" "$before"
}

@test "user nobody (uid 65534) can read mwi" {
	run as_nobody cat "$(mwi_file "$slot")"
	assert_success
	assert_output 0
}

@test "user nobody (uid 65534) cannot write mwi: EACCES, nothing changed" {
	local before
	before=$(registers "$slot")
	run write_mwi "$slot" '0\n' as_nobody
	assert_failure
	assert_output --partial "Permission denied"
	assert_equal "$(registers "$slot")" "$before"
}

@test "root in a new user namespace can read mwi but not write it: EPERM, nothing changed" {
	local before
	before=$(registers "$slot")
	run unshare --user --map-root-user cat "$(mwi_file "$slot")"
	assert_success
	assert_output 0
	run write_mwi "$slot" '0\n' unshare --user --map-root-user
	assert_failure
	assert_output --partial "Operation not permitted"
	assert_equal "$(registers "$slot")" "$before"
}

@test "root without CAP_SYS_ADMIN can read mwi" {
	run as_root_without_caps cat "$(mwi_file "$slot")"
	assert_success
	assert_output 0
}

@test "root without CAP_SYS_ADMIN cannot write mwi: EPERM before the input is looked at" {
	local input before
	before=$(registers "$slot")
	for input in '0\n' '1\n' 'junk\n'; do
		run write_mwi "$slot" "$input" as_root_without_caps
		assert_failure
		assert_output --partial "Operation not permitted"
	done
	assert_equal "$(registers "$slot")" "$before"
}
