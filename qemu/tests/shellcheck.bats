#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# qemu/checks/shellcheck.sh: what the shellcheck host check of make check runs.
bats_require_minimum_version 1.5.0
bats_load_library bats-support
bats_load_library bats-assert

# A git repository holding shellcheck.sh and the scripts given as
# NAME=CONTENT pairs.
make_repo() {
	local repo=$BATS_TEST_TMPDIR/repo pair
	mkdir -p "$repo/qemu/checks"
	cp "$BATS_TEST_DIRNAME/../checks/shellcheck.sh" "$repo/qemu/checks/"
	for pair in "$@"; do
		mkdir -p "$repo/$(dirname "${pair%%=*}")"
		printf '%s\n' "${pair#*=}" >"$repo/${pair%%=*}"
	done
	git -C "$repo" init -q
	git -C "$repo" add -A
}

@test "shellcheck.sh lists scripts by name and by #! line, not other files" {
	make_repo 'a.sh=echo a' 'b/t.bats=@test x { true; }' 'bin/tool=#!/bin/sh
echo t' 'notes.txt=echo' 'Makefile=all:'
	run "$BATS_TEST_TMPDIR/repo/qemu/checks/shellcheck.sh" --list
	assert_success
	assert_equal "$(sort <<<"$output" | tr '\n' ' ')" "a.sh b/t.bats bin/tool qemu/checks/shellcheck.sh "
}

@test "shellcheck.sh fails on a warning in a script that only its #! line names" {
	make_repo 'bin/tool=#!/bin/bash
unused=1'
	run "$BATS_TEST_TMPDIR/repo/qemu/checks/shellcheck.sh"
	assert_failure
	assert_output --partial "SC2034"
}
