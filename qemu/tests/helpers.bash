# SPDX-License-Identifier: GPL-2.0
# Setup for the harness's own tests: a fresh log directory, fake kernel
# and initramfs files, and qemu/tests/fake-qemu first on PATH.
bats_require_minimum_version 1.5.0
bats_load_library bats-support
bats_load_library bats-assert

HARNESS=$(cd "$BATS_TEST_DIRNAME/.." && pwd)

# REAL_* are read by the test files.
# shellcheck disable=SC2034
harness_setup() {
	REAL_PATH=$PATH
	REAL_KERNEL=${KERNEL:-}
	REAL_INITRD=${INITRD:-}
	OUT=$BATS_TEST_TMPDIR/logs/not-yet
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	ln -s "$BATS_TEST_DIRNAME/fake-qemu" "$BATS_TEST_TMPDIR/bin/qemu-system-x86_64"
	PATH=$BATS_TEST_TMPDIR/bin:$PATH
	for f in kernel kernel-nodebugfs kernel-stress kernel-debug kernel-field initrd initrd-stress \
		initrd-debug initrd-field; do
		echo "$f" >"$BATS_TEST_TMPDIR/$f"
	done
	export KERNEL=$BATS_TEST_TMPDIR/kernel INITRD=$BATS_TEST_TMPDIR/initrd
	export KERNEL_NODEBUGFS=$BATS_TEST_TMPDIR/kernel-nodebugfs
	export KERNEL_DEBUG=$BATS_TEST_TMPDIR/kernel-debug
	export INITRD_DEBUG=$BATS_TEST_TMPDIR/initrd-debug
	export KERNEL_STRESS=$BATS_TEST_TMPDIR/kernel-stress
	export INITRD_STRESS=$BATS_TEST_TMPDIR/initrd-stress
	export KERNEL_FIELD=$BATS_TEST_TMPDIR/kernel-field
	export INITRD_FIELD=$BATS_TEST_TMPDIR/initrd-field
	export FAKE_LOG=$BATS_TEST_TMPDIR/starts
	export ACCEL=tcg BUILD=$BATS_TEST_TMPDIR/build
	# and none of the tree checks make check's environment would start
	unset TESTS_EXTRA FORCE CI DEBUG_KERNEL ONLY_EXTRA TEST_FILES TEST_FILTER KOBJ_W1 KOBJ KOBJ_NODEBUGFS \
		TIMEOUT TIMEOUT_DEBUG MEM
}

# A committed copy of the project in the new directory $1 (lib.sh's).
project_copy() {
	bash -c '. "$1/lib.sh" && project_copy "$2"' _ "$HARNESS" "$1"
}

# guests.sh into $OUT for the machines given; its progress lines (stderr)
# are part of $output.
run_check() {
	run "$HARNESS/guests.sh" "$OUT" "$@"
}

# A TESTS_EXTRA directory with one passing test in $1.bats.
extra_dir() {
	EXTRA=$BATS_TEST_TMPDIR/extra
	mkdir -p "$EXTRA"
	cat >"$EXTRA/$1.bats" <<'BATS'
@test "an extra test runs in the guest" {
	[ -d /sys/bus/pci/devices ]
}
BATS
}

assert_last_line() {
	assert_equal "${lines[${#lines[@]} - 1]}" "$1"
}

# How many times a guest was started.
starts() {
	wc -l <"$FAKE_LOG" 2>/dev/null || echo 0
}
