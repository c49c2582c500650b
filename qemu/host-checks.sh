#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# host-checks.sh OUTDIR
#
# The host checks that depend on no kernel tree, run once per make check
# (make check-host): mwictl's own tests (plain, under ASan and UBSan,
# mutants, clang, the Debian package, the fuzz target), shellcheck on
# every script, and the harness's own tests (qemu/tests) and their
# mutants. TAP, then the summary and OUTDIR/counts (tap.sh). A check whose
# inputs are those of its last green run shows that run's output, marked
# "(cached)"; FORCE=1 or CI=true runs everything.
#
# Environment: KERNEL and INITRD (the primary tree's pc guest, which one
# harness test boots), FUZZ_SECONDS (default 10), FORCE, CI.
set -eu
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/tap.sh"

outdir=$1
tap_start "$outdir" host-checks.sh
top=$here/..

# names depend on the host's pci.ids, hwdb and libpci
# package.bats and the .deb also ship the README and the admin guide
us=$(git_key userspace README.md Documentation/admin-guide.md)
[ -z "$us" ] || us=$us$(inputs_key /usr/share/misc/pci.ids /usr/lib/udev/hwdb.bin \
	/etc/udev/hwdb.bin -- dpkg-query -W libpci3 libpci-dev)
host_tap mwictl "mwictl (host)" "$us" make -s -C "$top/userspace" check
host_tap mwictl-san "mwictl under ASan and UBSan (host)" "$us" \
	make -s -C "$top/userspace" check-sanitizers
host_ok mwictl-mutants "mwictl's own tests kill each mutant of userspace/mutants/" "$us" \
	make -s -C "$top/userspace" check-mutants
host_ok mwictl-clang "mwictl builds with clang -Wall -Wextra -Werror" "$us" \
	make -s -C "$top/userspace" check-clang
host_ok mwictl-deb "mwictl's Debian package builds and lintian finds no error or warning" \
	"$us" make -s -C "$top/userspace" deb DEBDIR="$outdir/deb"
host_ok mwictl-fuzz "the mwictl fuzz target runs ${FUZZ_SECONDS:-10} s without a crash" \
	"$us${FUZZ_SECONDS:-10}" make -s -C "$top/userspace" fuzz FUZZ_SECONDS="${FUZZ_SECONDS:-10}"
host_ok shellcheck "every shell script and bats file is clean at shellcheck's warning level" \
	"$(git_key .)$(shellcheck --version 2>&1 | sha256sum)" \
	"$here/checks/shellcheck.sh"
# harness.bats reads the manifests' lists of tests-bats/, the series
# and the real pc guest's kernel; the mutants run it again
hk=$(git_key qemu kernel-patches tests-bats)$(inputs_key "$KERNEL" "$INITRD")
host_tap harness "the harness's own paths (host)" "$hk" bats --tap "$here/tests"
host_ok harness-mutants "the harness's own tests kill each mutant of qemu/tests/mutants/" \
	"$hk" "$here/tests/mutants.sh"
tap_finish
