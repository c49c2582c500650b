#!/usr/bin/env bats
# Usage errors exit 1 with a message; --help and the man page agree.

setup() {
	load helpers
	standard_tree
	MAN=$BATS_TEST_DIRNAME/../mwictl.8
}

@test "--help prints the usage and every exit status, and exits 0" {
	run mwictl --help
	assert_success
	assert_line --index 0 --partial "Usage: mwictl [list]"
	for code in "0 success" "1 usage error" "2 no such device" "3 the device refused" \
		"4 permission denied" "5 the kernel has no mwi" "6 other I/O error" "7 a driver is bound"; do
		assert_output --partial "$code"
	done
}

@test "--version prints the version and exits 0" {
	run mwictl --version
	assert_success
	assert_output --regexp '^mwictl [0-9]+\.[0-9]+$'
}

@test "every option in --help is documented in the man page, and the reverse" {
	local help man
	help=$(mwictl --help | grep -oE '(^|[[:space:]])--?[a-zA-Z][-a-zA-Z]*' | tr -d ' ' | sort -u)
	man=$(man -l "$MAN" 2>/dev/null | grep -oE '(^|[[:space:]])--?[a-zA-Z][-a-zA-Z]*' | tr -d ' ' | sort -u)
	assert_equal "$help" "$man"
}

@test "every exit status in the man page is in --help with the same meaning" {
	local code
	for code in 0 1 2 3 4 5 6 7; do
		man -l "$MAN" 2>/dev/null | sed -n '/^EXIT STATUS/,/^EXAMPLES/p' | grep -qE "^ +$code( |$)" ||
			fail "exit status $code is not in the man page"
		mwictl --help | grep -qE "(^| )$code [a-z]" || fail "exit status $code is not in --help"
	done
}

@test "the man page renders without warnings" {
	run bash -c "LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l '$MAN' 2>&1 >/dev/null"
	assert_output ""
}

@test "the man page passes mandoc -T lint with style checks" {
	run mandoc -T lint -W style "$MAN"
	assert_success
	assert_output ""
}

@test "the man page's SEE ALSO names lspci, setpci, pci.ids and update-pciids" {
	local page
	page=$(man -l "$MAN" 2>/dev/null | sed -n '/^SEE ALSO/,$p')
	for ref in "lspci(8)" "setpci(8)" "pci.ids(5)" "update-pciids(8)"; do
		[[ "$page" == *"$ref"* ]] || fail "SEE ALSO lacks $ref"
	done
}

usage_error() {
	run --separate-stderr mwictl "$@"
	assert_equal "$status" 1
	assert_equal "${stderr_lines[1]}" "Try 'mwictl --help'."
}

# The message names the option as it was typed.
@test "an unknown option exits 1 and says so" { usage_error -x; assert_equal "${stderr_lines[0]}" "mwictl: unknown option '-x'"; }
@test "an unknown long option exits 1 and names it as typed" { usage_error --frobnicate=2; assert_equal "${stderr_lines[0]}" "mwictl: unknown option '--frobnicate'"; }
@test "-j is not an undocumented alias of --json" { usage_error -j; assert_equal "${stderr_lines[0]}" "mwictl: unknown option '-j'"; }
@test "-s without a value exits 1" { usage_error list -s; assert_equal "${stderr_lines[0]}" "mwictl: option '-s' needs a value"; }
@test "--sysfs without a value names --sysfs, not a letter" { usage_error --sysfs; assert_equal "${stderr_lines[0]}" "mwictl: option '--sysfs' needs a value"; }
@test "--debugfs without a value names --debugfs" { usage_error list --debugfs; assert_equal "${stderr_lines[0]}" "mwictl: option '--debugfs' needs a value"; }
@test "--json=x names --json, which takes no value" { usage_error --json=x; assert_equal "${stderr_lines[0]}" "mwictl: option '--json' takes no value"; }
@test "--help=1 names --help, which takes no value" { usage_error --help=1; assert_equal "${stderr_lines[0]}" "mwictl: option '--help' takes no value"; }
@test "an ambiguous abbreviation lists what it could mean" { usage_error --d x; assert_equal "${stderr_lines[0]}" "mwictl: option '--d' is ambiguous (--debugfs, --dry-run)"; }
@test "an empty --sysfs= is refused, not taken as /sys" { usage_error --sysfs=; assert_equal "${stderr_lines[0]}" "mwictl: option '--sysfs' needs a value, not an empty one"; }
@test "an empty -s is refused" { usage_error list -s ''; assert_equal "${stderr_lines[0]}" "mwictl: option '-s' needs a value, not an empty one"; }
@test "an empty -d is refused" { usage_error on -d ''; assert_equal "${stderr_lines[0]}" "mwictl: option '-d' needs a value, not an empty one"; }
@test "an empty SLOT is refused" { usage_error on ''; assert_equal "${stderr_lines[0]}" "mwictl: on: an empty SLOT"; }
@test "an unknown command exits 1 and says so" { usage_error frob; assert_equal "${stderr_lines[0]}" "mwictl: unknown command 'frob'"; }
@test "show without a slot exits 1" { usage_error show; assert_equal "${stderr_lines[0]}" "mwictl: show: needs one SLOT or -d ID"; }
@test "get with two slots exits 1" { usage_error get 00:02.0 00:03.0; assert_equal "${stderr_lines[0]}" "mwictl: get: needs one SLOT or -d ID"; }
@test "on without a slot or -d exits 1" { usage_error on; assert_equal "${stderr_lines[0]}" "mwictl: on: needs SLOT... or -d ID"; }
@test "--json with get exits 1" { usage_error get 00:02.0 --json; assert_equal "${stderr_lines[0]}" "mwictl: get: --json is for list and show"; }
@test "list with a positional argument exits 1" { usage_error list 00:02.0; assert_equal "${stderr_lines[0]}" "mwictl: list: unexpected argument '00:02.0' (use -s SLOT)"; }
@test "-d twice exits 1" { usage_error list -d 1:2 -d 3:4; assert_equal "${stderr_lines[0]}" "mwictl: option '-d' given twice"; }

@test "make install puts the binary, the man page and the completion under DESTDIR/PREFIX" {
	make -s -C "$BATS_TEST_DIRNAME/.." install DESTDIR="$BATS_TEST_TMPDIR/dest" PREFIX=/opt/m >/dev/null
	[ -x "$BATS_TEST_TMPDIR/dest/opt/m/bin/mwictl" ]
	[ -f "$BATS_TEST_TMPDIR/dest/opt/m/share/man/man8/mwictl.8" ]
	[ -f "$BATS_TEST_TMPDIR/dest/opt/m/share/bash-completion/completions/mwictl" ]
}

@test "make install takes BINDIR, MANDIR and COMPLETIONSDIR as given" {
	make -s -C "$BATS_TEST_DIRNAME/.." install DESTDIR="$BATS_TEST_TMPDIR/dest" \
		BINDIR=/s MANDIR=/m COMPLETIONSDIR=/c >/dev/null
	[ -x "$BATS_TEST_TMPDIR/dest/s/mwictl" ]
	[ -f "$BATS_TEST_TMPDIR/dest/m/man8/mwictl.8" ]
	[ -f "$BATS_TEST_TMPDIR/dest/c/mwictl" ]
}

@test "a packager's CFLAGS keep the warnings and never get -Werror" {
	run make -s -B -n -C "$BATS_TEST_DIRNAME/.." mwictl CFLAGS="-O1 -g0"
	assert_success
	assert_output --partial "-O1 -g0"
	assert_output --partial "-Wall -Wextra"
	refute_output --partial "-Werror"
	assert_output --partial "-lpci"
}

@test "mwictl is a dynamically linked position-independent executable" {
	run file -L "$MWICTL"
	assert_output --partial "pie executable"
	assert_output --partial "dynamically linked"
}

@test "a bad slot given as a word is named as typed, quoted, not as -s" {
	run --separate-stderr mwictl on yes
	assert_equal "$status" 1
	assert_equal "$stderr" "mwictl: 'yes': Invalid slot number"
	run --separate-stderr mwictl on -s yes
	assert_equal "$status" 1
	assert_equal "$stderr" "mwictl: -s 'yes': Invalid slot number"
}

@test "a -d value is quoted as typed, so that its colons do not read as punctuation" {
	run --separate-stderr mwictl get -d 1af4::
	assert_equal "$status" 2
	assert_equal "$stderr" "mwictl: -d '1af4::': no such device"
}

@test "a 300-character unknown command is named whole, not cut" {
	local word
	word=$(printf 'x%.0s' {1..300})
	usage_error "$word"
	assert_equal "${stderr_lines[0]}" "mwictl: unknown command '$word'"
}

@test "a 300-character unknown long option is named whole, not cut" {
	local word
	word=--$(printf 'y%.0s' {1..300})
	usage_error "$word=1"
	assert_equal "${stderr_lines[0]}" "mwictl: unknown option '$word'"
}

@test "a 300-character bad slot or -d is named whole, with libpci's reason" {
	local slot id
	slot=$(printf '0%.0s' {1..290})1:00:1f.0
	run --separate-stderr mwictl get "$slot"
	assert_equal "$status" 1
	assert_equal "$stderr" "mwictl: '$slot': Expression too long"
	id=$(printf '8%.0s' {1..300}):
	run --separate-stderr mwictl list -d "$id"
	assert_equal "$status" 1
	assert_equal "$stderr" "mwictl: -d '$id': Expression too long"
}

@test "a 100-character unknown -O parameter is named whole, not taken for a missing '='" {
	local name
	name=$(printf 'p%.0s' {1..100})
	run --separate-stderr mwictl list -O "$name=1"
	assert_equal "$status" 1
	assert_equal "$stderr" "mwictl: -O '$name=1': unknown parameter '$name' (see lspci -O help)"
}

@test "MWICTL_DEBUGFS, which mwictl 2.1 read, is ignored with a warning that -q silences" {
	export MWICTL_DEBUGFS=/nonexistent
	run --separate-stderr mwictl get 0000:00:02.0
	assert_success
	assert_equal "$stderr" "mwictl: MWICTL_DEBUGFS is ignored since mwictl 3.0: give --debugfs"
	run --separate-stderr mwictl get -q 0000:00:02.0
	assert_success
	assert_equal "$stderr" ""
}
