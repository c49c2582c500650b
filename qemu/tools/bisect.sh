#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bisect.sh KSRC PATCHDIR WORKTREE KOBJ OUTDIR
#
# Prove the series is bisectable: apply the patches one at a time to a
# pristine worktree of KSRC, build the guest kernel after each (in KOBJ,
# incrementally) and boot the pc guest to run tests-bats/drivers.bats, and
# compile every file touched so far with W=1 under allmodconfig (in
# KOBJ-w1, w1-check.sh). Prints TAP, then "N passed, N failed".
set -eu
here=$(dirname "$0")/..
. "$here/lib.sh"

ksrc=$(realpath -m "$1")
patchdir=$(realpath "$2")
worktree=$(realpath -m "$3")
kobj=$(realpath -m "$4")
outdir=$(realpath -m "$5")
git_id=(-c user.name=pci-mwi -c user.email=pci-mwi@localhost)
mapfile -t patches < <(series_patches "$patchdir")
passed=0 failed=0 n=0

tap() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		passed=$((passed + 1))
		printf 'ok %d %s\n' "$n" "$2"
	else
		failed=$((failed + 1))
		printf 'not ok %d %s\n' "$n" "$2"
	fi
}

# Build, pack and boot the kernel at the worktree's current commit.
build_and_boot() {
	local name=$1 initrd="$outdir/initramfs.cpio"
	"$here/build-kernel.sh" "$worktree" "$kobj" "$here/kernel.config" "$here/kernel-devices.config" >"$outdir/build-$name.log" 2>&1 || return 1
	"$here/mkinitramfs.sh" "$initrd" "$kobj/modroot" "$here/../tests-bats" 2>/dev/null || return 1
	KERNEL="$kobj/arch/x86/boot/bzImage" INITRD="$initrd" \
		"$here/run.sh" "$outdir/$name" pc 'bats --tap /tests/drivers.bats' >"$outdir/boot-$name.log" 2>&1
}

mkdir -p "$outdir"
if [ ! -d "$worktree" ]; then
	git -C "$ksrc" worktree add -q --detach "$worktree" pristine
fi
git -C "$worktree" am --abort >/dev/null 2>&1 || true
git -C "$worktree" reset -q --hard pristine

printf '1..%d\n' "$((2 * ${#patches[@]} + 1))"
rc=0
build_and_boot 0000-pristine || rc=1
tap "$rc" "pristine linux-source-$(kver) builds and boots"
for p in "${patches[@]}"; do
	name=$(series_name "$p" | tr / _)
	name=${name%.patch}
	rc=0
	git -C "$worktree" "${git_id[@]}" am -q "$p" && build_and_boot "$name" || rc=1
	tap "$rc" "the tree builds and boots, and every driver binds, after $name"
	rc=0
	"$here/checks/w1-check.sh" "$worktree" "$kobj-w1" pristine >"$outdir/w1-$name.tap" 2>&1 || rc=1
	grep -q '^not ok' "$outdir/w1-$name.tap" && rc=1
	grep -q '^ok' "$outdir/w1-$name.tap" || rc=1
	tap "$rc" "every file touched up to $name compiles with W=1 and no warning"
done
printf '%d passed, %d failed\n' "$passed" "$failed"
[ "$failed" = 0 ]
