#!/usr/bin/env bats
# The caches cannot lie: each class of input of a cached result (a known
# warning, lib.sh, a new file in tests-bats/, a new file in a new
# directory of userspace/) changes its key, so the guest boots again or
# the host check runs again. Keys come from git (git_key in lib.sh), so
# each test works on a committed copy of the project.

setup() {
	load helpers
	harness_setup
	COPY=$BATS_TEST_TMPDIR/project
	project_copy "$COPY"
}

check_copy() {
	run "$COPY/qemu/guests.sh" "$OUT" "$@"
}

@test "a changed known warning, lib.sh or a new file in tests-bats/ boots the cached guest again" {
	check_copy pc
	assert_success
	check_copy pc
	assert_line --partial '(cached: identical to its last green run)'
	assert_equal "$(starts)" 1
	printf '# a comment\n' >>"$COPY/qemu/known-warnings"
	check_copy pc
	refute_line --partial 'cached'
	assert_equal "$(starts)" 2
	printf '# a comment\n' >>"$COPY/qemu/lib.sh"
	check_copy pc
	assert_equal "$(starts)" 3
	printf '@test "new" { true; }\n' >"$COPY/tests-bats/new.bats"
	check_copy pc
	assert_equal "$(starts)" 4
	check_copy pc
	assert_line --partial '(cached: identical to its last green run)'
	assert_equal "$(starts)" 4
}

@test "build output git ignores, a file's time and a commit of the same content keep the guest cached" {
	check_copy pc
	assert_equal "$(starts)" 1
	echo built >"$COPY/userspace/mwictl"
	touch -d '2001-01-01' "$COPY/qemu/lib.sh"
	git -C "$COPY" -c user.name=t -c user.email=t@example.org commit -qm empty --allow-empty
	check_copy pc
	assert_line --partial '(cached: identical to its last green run)'
	assert_equal "$(starts)" 1
}

# The host checks of the copy (host-checks.sh), each a stand-in that logs
# its run to $RAN: userspace/Makefile's targets, checks/shellcheck.sh and
# the harness's own tests and mutants.
fake_host_checks() {
	local targets="check check-sanitizers check-mutants check-clang deb fuzz"
	RAN=$BATS_TEST_TMPDIR/ran
	export RAN
	printf '.PHONY: %s\n%s:\n\t@echo "$@" >>"$$RAN"; echo 1..1; echo "ok 1 $@"\n' \
		"$targets" "$targets" >"$COPY/userspace/Makefile"
	printf '#!/bin/sh\necho shellcheck >>"$RAN"\n' >"$COPY/qemu/checks/shellcheck.sh"
	printf '#!/bin/sh\necho harness-mutants >>"$RAN"\n' >"$COPY/qemu/tests/mutants.sh"
	rm "$COPY"/qemu/tests/*.bats
	printf '@test "harness" { echo harness >>"$RAN"; }\n' >"$COPY/qemu/tests/one.bats"
	git -C "$COPY" add -A
	git -C "$COPY" -c user.name=t -c user.email=t@example.org commit -qm fakes
}

host_checks_copy() {
	run "$COPY/qemu/host-checks.sh" "$OUT"
}

@test "a new file in a new directory of userspace/ runs mwictl's host checks again, and only those" {
	fake_host_checks
	host_checks_copy
	assert_success
	grep -qx check "$RAN"
	host_checks_copy
	assert_success
	assert_line --partial 'mwictl (host) (cached: inputs identical to its last green run)'
	rm "$RAN"
	mkdir "$COPY/userspace/new"
	echo 'int x;' >"$COPY/userspace/new/x.c"
	host_checks_copy
	assert_success
	run sort "$RAN"
	assert_output "$(printf 'check\ncheck-clang\ncheck-mutants\ncheck-sanitizers\ndeb\nfuzz\nshellcheck')"
}
