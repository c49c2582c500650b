#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The harness's own paths, the ones a warm tree hides: guests.sh run into a
# directory that does not exist yet, with TESTS_EXTRA, with no machines, and
# with guests that do not boot, die, hang or report kernel errors, and the
# manifests' fields. QEMU is replaced by qemu/tests/fake-qemu except in one
# test, which boots the real pc guest with only the extra tests.

setup() {
	load helpers
	harness_setup
}

@test "a first run into a missing log directory with TESTS_EXTRA passes the extra tests to the guest" {
	extra_dir pass
	FAKE_LIST_INITRD=1 TESTS_EXTRA=$EXTRA run_check pc
	assert_success
	assert_line '# file tests-extra/pass.bats'
	assert_last_line '1 passed, 0 failed'
	[ -s "$OUT/extra.cpio" ]
}

@test "TESTS_EXTRA without bats files is a named failure and still ends with the summary" {
	mkdir "$BATS_TEST_TMPDIR/empty"
	TESTS_EXTRA=$BATS_TEST_TMPDIR/empty run_check pc
	assert_failure
	assert_line --partial 'not ok - TESTS_EXTRA:'
	assert_last_line '1 passed, 1 failed'
}

@test "ONLY_EXTRA=1 boots only the guests that run TESTS_EXTRA and names the others as not booted" {
	extra_dir pass
	ONLY_EXTRA=1 TESTS_EXTRA=$EXTRA run_check sim pc stress field
	assert_success
	assert_equal "$(starts)" 1
	assert_line '# guest sim: not booted: ONLY_EXTRA=1, and TESTS_EXTRA runs on pc, q35 and nodebugfs'
	assert_line --partial '# guest field: not booted'
	assert_last_line '1 passed, 0 failed'
}

@test "ONLY_EXTRA=1 without TESTS_EXTRA, or with no guest that runs it, is a named failure" {
	ONLY_EXTRA=1 run_check pc
	assert_failure
	assert_line --partial 'not ok - ONLY_EXTRA: ONLY_EXTRA=1 runs only TESTS_EXTRA'
	extra_dir pass
	rm -f "$FAKE_LOG"
	ONLY_EXTRA=1 TESTS_EXTRA=$EXTRA run_check sim stress
	assert_failure
	assert_line 'not ok - ONLY_EXTRA: none of the guests sim stress runs TESTS_EXTRA (pc, q35 and nodebugfs do)'
	assert_equal "$(starts)" 0
	assert_last_line '0 passed, 1 failed'
}

@test "make test's TEST_FILES and TEST_FILTER reach the guest as /test-files and /test-filter" {
	extra_dir mine
	FAKE_LIST_INITRD=1 TESTS_EXTRA=$EXTRA TEST_FILES="sim-sysfs.bats mine.bats" TEST_FILTER="^refuses: " \
		run_check sim
	assert_success
	assert_line '# file test-files'
	assert_line '# file test-filter'
	assert_line '# file tests-extra/mine.bats'
	assert_equal "$(cd "$BATS_TEST_TMPDIR" && cpio -i --quiet --to-stdout test-files <"$OUT/select.cpio")" \
		"$(printf 'sim-sysfs.bats\nmine.bats')"
	assert_equal "$(cd "$BATS_TEST_TMPDIR" && cpio -i --quiet --to-stdout test-filter <"$OUT/select.cpio")" \
		'^refuses: '
}

@test "make test with a file that is no test is a named failure and boots nothing" {
	TEST_FILES="sim-sysfs.bats no-such.bats" run_check sim
	assert_failure
	assert_line 'not ok - TEST_FILES: no test file no-such.bats in tests-bats/'
	assert_equal "$(starts)" 0
	assert_last_line '0 passed, 1 failed'
}

@test "make test with a name that is no .bats file, or has a directory, is a named failure and boots nothing" {
	TEST_FILES="helpers.bash ../tests-bats/sim-sysfs.bats sim-sysfs.bats" run_check sim
	assert_failure
	assert_line 'not ok - TEST_FILES: helpers.bash is not the name of a .bats file (no directory)'
	assert_line 'not ok - TEST_FILES: ../tests-bats/sim-sysfs.bats is not the name of a .bats file (no directory)'
	assert_equal "$(starts)" 0
	assert_last_line '0 passed, 2 failed'
}

@test "make test whose filter matches no test name is a named failure" {
	FAKE_GUEST=none TEST_FILES=sim-sysfs.bats TEST_FILTER=nothing-is-called-this run_check sim
	assert_failure
	assert_line "not ok - sim: no test of sim-sysfs.bats has a name matching 'nothing-is-called-this'"
	assert_last_line '0 passed, 1 failed'
}

@test "no machines at all ends with a zero summary and success" {
	run_check
	assert_success
	assert_last_line '0 passed, 0 failed'
}

@test "a guest that cannot start is a named failure, not a shell error" {
	FAKE_GUEST=nostart run_check pc
	assert_failure
	assert_line --partial 'not ok - pc: guest did not boot'
	refute_output --partial 'No such file'
	assert_last_line '0 passed, 1 failed'
}

@test "a results file cut off before the exit line is a named failure" {
	FAKE_GUEST=truncated run_check pc
	assert_failure
	assert_line --partial 'not ok - pc: guest stopped before the tests finished'
	assert_last_line '1 passed, 1 failed'
}

@test "a results file with fewer tests than planned is a named failure" {
	FAKE_GUEST=short run_check pc
	assert_failure
	assert_line --partial 'not ok - pc: bats ran no test or fewer than it planned'
}

@test "a failing guest test fails the run and counts once" {
	FAKE_GUEST=fail run_check pc
	assert_failure
	assert_last_line '1 passed, 1 failed'
}

@test "an Oops on the console fails a guest whose tests passed" {
	FAKE_GUEST=oops run_check pc
	assert_failure
	assert_line --partial 'not ok - pc: kernel console reports errors'
}

@test "sym53c8xx's known remove warning is dropped and counted, the same warning elsewhere fails" {
	FAKE_GUEST=known run_check pc
	assert_success
	assert_line '# pc: 1 known upstream warning(s) dropped (qemu/known-warnings)'
	FORCE=1 FAKE_GUEST=unknown run_check pc
	assert_failure
	assert_line --partial 'not ok - pc: kernel console reports errors'
}

@test "a missing console log is a named failure" {
	FAKE_GUEST=noconsole run_check pc
	assert_failure
	assert_line --partial 'not ok - pc: kernel console log missing or unreadable'
}

@test "a guest that hangs is stopped at TIMEOUT, named, and its console's end shown" {
	FAKE_GUEST=hang TIMEOUT=1 run_check pc
	assert_failure
	assert_line --partial 'not ok - pc: guest did not finish within 1 s'
	assert_line '#   pci-mwi:    42 root     systemd-udevd'
	assert_line '#   20'
	assert_last_line '0 passed, 1 failed'
}

@test "a log directory that cannot be created still ends with the summary" {
	OUT=/proc/pci-mwi-no-such-dir run_check pc
	assert_failure
	assert_line --partial 'not ok - harness: guests.sh stopped'
	assert_last_line '0 passed, 1 failed'
}

@test "an unchanged green guest is answered from the cache without booting" {
	run_check pc
	assert_success
	assert_equal "$(starts)" 1
	run_check pc
	assert_success
	assert_line --partial '(cached: identical to its last green run)'
	assert_last_line '1 passed, 0 failed'
	assert_equal "$(starts)" 1
}

@test "unchanged TESTS_EXTRA keeps the guest cached, even with new file times" {
	extra_dir pass
	TESTS_EXTRA=$EXTRA run_check pc
	assert_success
	assert_equal "$(starts)" 1
	touch -d '2001-01-01' "$EXTRA/pass.bats"
	TESTS_EXTRA=$EXTRA run_check pc
	assert_success
	assert_line --partial '(cached: identical to its last green run)'
	assert_equal "$(starts)" 1
	echo '# changed' >>"$EXTRA/pass.bats"
	TESTS_EXTRA=$EXTRA run_check pc
	assert_equal "$(starts)" 2
}

@test "a changed initramfs, FORCE=1 or CI=true boots the guest again" {
	run_check pc
	assert_equal "$(starts)" 1
	echo changed >>"$INITRD"
	run_check pc
	assert_equal "$(starts)" 2
	FORCE=1 run_check pc
	assert_equal "$(starts)" 3
	CI=true run_check pc
	assert_equal "$(starts)" 4
	refute_line --partial 'cached'
}

@test "a failed guest is never cached" {
	FAKE_GUEST=fail run_check pc
	FAKE_GUEST=green run_check pc
	assert_success
	assert_equal "$(starts)" 2
}

@test "stress boots the driverless debug kernel, DEBUG_KERNEL=1 the debug kernel with drivers" {
	run_check pc nodebugfs stress
	assert_success
	run sort "$FAKE_LOG"
	assert_output "$(printf 'start initrd kernel\nstart initrd kernel-nodebugfs\nstart initrd-stress kernel-stress')"
	rm "$FAKE_LOG"
	DEBUG_KERNEL=1 run_check pc stress
	assert_success
	run sort "$FAKE_LOG"
	assert_output "$(printf 'start initrd-debug kernel-debug\nstart initrd-debug kernel-debug')"
}

@test "never measured, guests start in the documented longest-first order" {
	run_check q35 stress pc sim
	assert_success
	run grep -o 'booting the [a-z0-9]* guest' <<<"$output"
	assert_output "$(printf 'booting the %s guest\n' sim pc q35 stress)"
}

@test "measured, the guest that took longest last time starts first" {
	mkdir -p "$OUT"
	printf 'sim 100\nstress 300\npc 50\n' >"$OUT/lengths"
	run_check pc sim stress q35
	assert_success
	run grep -o 'booting the [a-z0-9]* guest' <<<"$output"
	assert_output "$(printf 'booting the %s guest\n' stress sim pc q35)"
}

@test "the real pc guest runs TESTS_EXTRA on a first run into a fresh directory" {
	[ -s "$REAL_KERNEL" ] || skip "no guest kernel built (run under make check)"
	extra_dir pass
	PATH=$REAL_PATH ONLY_EXTRA=1 TESTS_EXTRA=$EXTRA KERNEL=$REAL_KERNEL INITRD=$REAL_INITRD \
		TIMEOUT=300 run_check pc
	assert_success
	assert_line --partial 'ok 1 an extra test runs in the guest'
	assert_last_line '1 passed, 0 failed'
}

@test "ACCEL=auto boots kvm where the probe's kernel reaches its console under KVM, and asks once" {
	touch "$BATS_TEST_TMPDIR/kvm"
	ACCEL=auto KVM_DEV=$BATS_TEST_TMPDIR/kvm FAKE_KVM=works run_check pc q35
	assert_success
	assert_line --partial 'booting the pc guest (kvm)'
	assert_line --partial 'booting the q35 guest (kvm)'
	assert_equal "$(wc -l <"$FAKE_LOG.probes")" 1
}

@test "ACCEL=auto boots tcg where KVM does not run the kernel, or /dev/kvm cannot be opened" {
	touch "$BATS_TEST_TMPDIR/kvm"
	ACCEL=auto KVM_DEV=$BATS_TEST_TMPDIR/kvm FAKE_KVM=fails run_check pc
	assert_success
	assert_line --partial 'booting the pc guest (tcg)'
	ACCEL=auto KVM_DEV=$BATS_TEST_TMPDIR/no-kvm FAKE_KVM=works FORCE=1 run_check pc
	assert_success
	assert_line --partial 'booting the pc guest (tcg)'
	assert_equal "$(wc -l <"$FAKE_LOG.probes")" 1
}

# The files guest $1 was given to run, one line each, as the fake lists them.
test_files_of() {
	FAKE_LIST_INITRD=1 run_check "$1"
	assert_success
	printf '%s\n' "${lines[@]}" | sed -n 's/^# test-file //p'
}

@test "each guest runs the test list of its manifest in qemu/guests/, and every test file runs somewhere" {
	local g all=""
	run test_files_of stress
	assert_output "$(printf '%s\n' sim-race.bats sim-stress.bats stress-console-unlocked.bats \
		stress-failslab.bats stress-kmemleak.bats)"
	run test_files_of field
	assert_output field-stock-kernel.bats
	run test_files_of sim
	assert_equal "${lines[${#lines[@]} - 1]}" sim-lockdown.bats
	refute_line --regexp '^(sim-stress|[^s].*|s[^i].*)\.bats$'
	assert_line sim-race.bats
	run test_files_of pc
	assert_line debugfs.bats
	assert_line mwi-input.bats
	refute_line --regexp '^(sim|stress|field)-'
	local pc=$output
	run test_files_of q35
	assert_output "$(grep -vx mwi-input.bats <<<"$pc")"
	run test_files_of nodebugfs
	assert_output "$(grep -vx -e mwi-input.bats -e debugfs.bats <<<"$pc")"
	for g in pc q35 sim nodebugfs stress field; do
		all+=$(test_files_of "$g")$'\n'
	done
	run diff <(sort -u <<<"$all" | sed '/^$/d') <(cd "$HARNESS/../tests-bats" && ls -- *.bats)
	assert_success
}

@test "TESTS_EXTRA joins the list of the guests whose manifest says extra=yes, by path, before their last file" {
	extra_dir mine
	TESTS_EXTRA=$EXTRA run test_files_of pc
	assert_equal "${lines[${#lines[@]} - 1]}" /tests-extra/mine.bats
	TESTS_EXTRA=$EXTRA run test_files_of sim
	refute_line --partial mine.bats
	TESTS_EXTRA=$EXTRA ONLY_EXTRA=1 run test_files_of q35
	assert_output /tests-extra/mine.bats
	# one named as a file of tests-bats/ is still the user's, beside it
	extra_dir quiet
	TESTS_EXTRA=$EXTRA run test_files_of pc
	assert_line quiet.bats
	assert_line /tests-extra/quiet.bats
}

@test "a new manifest in qemu/guests/ is a new guest: its machine, kernel and tests, nothing else edited" {
	local copy=$BATS_TEST_TMPDIR/project
	project_copy "$copy"
	printf '%s\n' 'qemu=(-M microvm)' 'kernel=nodebugfs' "tests=('mwi-*.bats')" \
		"skip=(mwi-input.bats)" 'last=quiet.bats' >"$copy/qemu/guests/mine"
	FAKE_LIST_INITRD=1 run "$copy/qemu/guests.sh" "$OUT" mine
	assert_success
	assert_line --partial 'booting the mine guest (tcg)'
	assert_equal "$(printf '%s\n' "${lines[@]}" | sed -n 's/^# test-file //p')" \
		"$(printf '%s\n' mwi-lspci.bats mwi-policy.bats mwi-refused.bats quiet.bats)"
	run cat "$FAKE_LOG"
	assert_output 'start initrd kernel-nodebugfs'
	run cat "$FAKE_LOG.args"
	assert_output --partial ' -M microvm '
}

@test "a manifest's timeout and kernel command line reach its guest; TIMEOUT overrides the timeout" {
	local copy=$BATS_TEST_TMPDIR/project
	project_copy "$copy"
	printf '%s\n' 'qemu=(-M pc)' "tests=('quiet.bats')" 'timeout=1' \
		'cmdline=(mine.word=1 mine.other=2)' 'debug_cmdline=(mine.debug=1)' >"$copy/qemu/guests/mine"
	FAKE_GUEST=hang run "$copy/qemu/guests.sh" "$OUT" mine
	assert_failure
	assert_line --partial 'not ok - mine: guest did not finish within 1 s'
	run cat "$FAKE_LOG.args"
	assert_output --partial ' mine.word=1 mine.other=2 '
	assert_output --partial ' mwi.timeout=1 '
	refute_output --partial 'mine.debug=1'
	rm "$FAKE_LOG.args"
	DEBUG_KERNEL=1 TIMEOUT_DEBUG=5 run "$copy/qemu/guests.sh" "$OUT" mine
	assert_success
	run cat "$FAKE_LOG.args"
	assert_output --partial ' mine.word=1 mine.other=2 mine.debug=1 '
	assert_output --partial ' mwi.timeout=5 '
	rm "$FAKE_LOG.args"
	TIMEOUT=7 run "$copy/qemu/guests.sh" "$OUT" mine
	assert_success
	run cat "$FAKE_LOG.args"
	assert_output --partial ' mwi.timeout=7 '
}

@test "the real manifests: pc's sym53c8xx words, panic_on_warn on the debug kernel but pc's" {
	run_check pc stress
	assert_success
	run grep -c ' sym53c8xx.verb=2 sym53c8xx.settle=0 .*mwi.machine=pc ' "$FAKE_LOG.args"
	assert_output 1
	run grep -c 'panic_on_warn=1 .*mwi.machine=stress ' "$FAKE_LOG.args"
	assert_output 1
	rm "$FAKE_LOG.args"
	DEBUG_KERNEL=1 run_check pc q35
	assert_success
	run grep -c 'panic_on_warn=1 .*mwi.machine=q35 ' "$FAKE_LOG.args"
	assert_output 1
	refute grep -q 'panic_on_warn=1 .*mwi.machine=pc ' "$FAKE_LOG.args"
}

@test "a manifest whose timeout is not a number of seconds is a named failure" {
	local copy=$BATS_TEST_TMPDIR/project
	project_copy "$copy"
	printf '%s\n' 'qemu=(-M pc)' "tests=('quiet.bats')" 'timeout=10m' >"$copy/qemu/guests/mine"
	run "$copy/qemu/guests.sh" "$OUT" mine
	assert_failure
	assert_output --partial "qemu/guests/mine: timeout='10m': a number of seconds"
}
