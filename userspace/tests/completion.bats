#!/usr/bin/env bats
# Bash completion as a user meets it: an interactive bash in tmux with
# bash-completion loaded, keys typed, the screen read back.

setup() {
	load helpers
	standard_tree
	tmux_shell
}

teardown() {
	tmux_stop
}

@test "a command name completes" {
	assert_completes "mwictl sh" "mwictl show "
}

@test "a full slot with colons completes (the word is not cut at ':')" {
	assert_completes "mwictl show 0000:00:03" "mwictl show 0000:00:03.0 "
}

@test "a short slot without the domain completes" {
	assert_completes "mwictl get 01:0" "mwictl get 01:03.0 "
}

@test "a slot in a domain above ffff completes after -s" {
	assert_completes "mwictl list -s 10000:00" "mwictl list -s 10000:00:01.0 "
}

@test "-d completes a VENDOR:DEVICE of the machine" {
	assert_completes "mwictl list -d 10ec" "mwictl list -d 10ec:8139 "
}

@test "a long option completes" {
	assert_completes "mwictl on --dry" "mwictl on --dry-run "
}

@test "rule completes off as the word after it" {
	assert_completes "mwictl rule of" "mwictl rule off "
}

@test "no command names are offered after a command" {
	assert_completes "mwictl on 00:02.0 sh" "mwictl on 00:02.0 sh"
}

@test "--rebind completes" {
	assert_completes "mwictl off --reb" "mwictl off --rebind "
}
