#!/usr/bin/env bats
# The sources depend one way: mwictl.c is the commands and main, and no
# other file needs anything from it.

setup() {
	load helpers
}

@test "mwictl.c defines no global symbol but main: every other file depends only downwards" {
	local obj=$BATS_TEST_TMPDIR/mwictl.o
	# shellcheck disable=SC2046
	cc $(pkg-config --cflags libpci) -c -o "$obj" "$BATS_TEST_DIRNAME/../mwictl.c"
	run nm --defined-only --extern-only "$obj"
	assert_success
	assert_equal "$(awk '{ print $3 }' <<<"$output")" main
}
