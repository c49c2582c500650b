#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mutants.sh KSRC BUILD
#
# "make check-mutants": prove that the tests have teeth. Each
# qemu/tools/mutants/*.patch is a small fault (a line changed or moved) in the
# patched tree; its header names the promise it breaks, the guests to boot
# and the test files to run there:
#   # promise: ...
#   # guests: sim
#   # tests: sim-sysfs.bats sim-faults.bats
#   # kernel: stress      (optional: the KASAN + lockdep + kmemleak kernel
#                          of the stress guest, instead of the guests' own)
#   # tree: 6.12          (optional: a fault in code only that tree's series
#                          has; on the other tree the mutant is listed as
#                          not run, and counts neither way)
# First the unmutated tree must pass every test that any mutant names (the
# baseline). Then, for each mutant, a worktree of KSRC gets the fault, the
# guest kernel is rebuilt incrementally (BUILD/kobj-mutant), and the named
# tests run; the first "not ok" line kills the mutant. Prints a table
# "mutant | killed by" and fails if any mutant survives. MUTANTS (a glob on
# the file names, default "*") picks some, e.g. MUTANTS='20-*'. A
# "kernel: stress" mutant builds in BUILD/kobj-mutant-stress instead (cold
# the first time: a worktree shares no ccache entry with build/KVER/linux).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"

ksrc=$(realpath "$1")
build=$(realpath -m "$2")
work=$build/mutant
logs=$build/logs/mutants
top=$here/..
mkdir -p "$logs"
# shellcheck disable=SC2206
mutants=("$here"/tools/mutants/${MUTANTS:-*}.patch)
[ -e "${mutants[0]}" ] || die "no mutant in qemu/tools/mutants/ matches '${MUTANTS:-*}'"

header() { # FILE KEY
	sed -n "s/^# $2: //p" "$1" | head -1
}

# The kernel a mutant is built as: "guest" (pc, q35, sim) or "stress".
kind_of() {
	local k
	k=$(header "$1" kernel)
	printf '%s\n' "${k:-guest}"
}

# Where kernel kind $1 builds, its initramfs, its config fragments.
kobj_of() {
	case "$1" in
	stress) printf '%s\n' "$build/kobj-mutant-stress" ;;
	*) printf '%s\n' "$build/kobj-mutant" ;;
	esac
}
initrd_of() {
	case "$1" in
	stress) printf '%s\n' "$build/initramfs-mutant-stress.cpio" ;;
	*) printf '%s\n' "$build/initramfs-mutant.cpio" ;;
	esac
}
fragments_of() {
	case "$1" in
	stress) printf '%s\n' "$here/kernel.config" "$here/kernel-debug.config" ;;
	*) printf '%s\n' "$here/kernel.config" "$here/kernel-devices.config" ;;
	esac
}

# The worktree at KSRC's commit, plus the mutant $1 if given.
prepare() {
	if [ ! -d "$work" ]; then
		git -C "$ksrc" worktree add -q --detach "$work" HEAD
	fi
	git -C "$work" checkout -q --detach -f "$(git -C "$ksrc" rev-parse HEAD)"
	git -C "$work" reset -q --hard
	[ -z "${1:-}" ] || git -C "$work" apply "$1"
}

# Build kernel kind $1 from the worktree, the emulator and the initramfs.
build() {
	local kobj simdir
	kobj=$(kobj_of "$1")
	simdir=$build/sim-mutant-$1
	# shellcheck disable=SC2046
	"$here/build-kernel.sh" "$work" "$kobj" $(fragments_of "$1") &&
		mkdir -p "$simdir" &&
		cp -p "$top"/tests-bats/fixtures/pci-mwi-sim/{Kbuild,pci-mwi-sim.c,pci-mwi-probe.c} \
			"$simdir/" &&
		make -s -C "$kobj" M="$simdir" modules &&
		"$here/mkinitramfs.sh" "$(initrd_of "$1")" "$kobj/modroot" "$top/tests-bats" \
			"$top/userspace/mwictl" "$simdir/pci-mwi-sim.ko" "$simdir/pci-mwi-probe.ko"
}

# Run the test files $4... on guest $3 booting kernel kind $2; output to
# $1. The first failing test, or why the guest failed, on stdout; nothing
# when all passed.
run_tests() {
	local out=$1 kind=$2 guest=$3 files="" f kernel initrd
	shift 3
	for f in "$@"; do
		[ "$f" = sim-lockdown.bats ] || files="$files /tests/$f"
	done
	# Lockdown cannot be lifted (nor a module loaded after it): as the
	# sim guest's manifest says (last=), its file runs after every other.
	for f in "$@"; do
		[ "$f" != sim-lockdown.bats ] || files="$files /tests/$f"
	done
	kernel=$(kobj_of "$kind")/arch/x86/boot/bzImage
	initrd=$(initrd_of "$kind")
	KERNEL=$kernel INITRD=$initrd KERNEL_STRESS=$kernel INITRD_STRESS=$initrd \
		"$here/run.sh" "$logs/$(basename "$out")-run" "$guest" "bats --tap$files" >"$out" 2>&1 || true
	if grep -m1 '^not ok' "$out"; then
		return 0
	fi
	if ! grep -q '^ok ' "$out" || grep -qE 'did not finish|stopped before' "$out"; then
		printf '%s: the guest did not run the tests (%s)\n' "$guest" "$out"
	fi
}

# For each kernel kind and guest ("kind:guest"), the test files all
# mutants name there.
declare -A want=() kinds=()
# Mutants for this tree: those without a "tree:" header, and those for KVER.
for_tree() {
	local t
	t=$(header "$1" tree)
	[ -z "$t" ] || [ "$t" = "$(kver)" ]
}

for m in "${mutants[@]}"; do
	for_tree "$m" || continue
	kinds[$(kind_of "$m")]=1
	for g in $(header "$m" guests); do
		want[$(kind_of "$m"):$g]="${want[$(kind_of "$m"):$g]:-} $(header "$m" tests)"
	done
done

say "mutants: baseline (the tree as patched)"
prepare
for k in "${!kinds[@]}"; do
	build "$k" >"$logs/baseline-$k-build.log" 2>&1 ||
		die "the unmutated tree does not build as $k (see $logs/baseline-$k-build.log)"
done
for kg in "${!want[@]}"; do
	# shellcheck disable=SC2086,SC2046
	bad=$(run_tests "$logs/baseline-${kg/:/-}.tap" "${kg%%:*}" "${kg#*:}" \
		$(printf '%s\n' ${want[$kg]} | sort -u))
	[ -z "$bad" ] || die "the unmutated tree fails on $kg: $bad (see $logs/baseline-${kg/:/-}.tap)"
done

survived=0 other=0
rows=()
for m in "${mutants[@]}"; do
	name=$(basename "$m" .patch)
	if ! for_tree "$m"; then
		rows+=("$name | $(header "$m" promise) | not run: a fault in the $(header "$m" tree) series only")
		other=$((other + 1))
		continue
	fi
	say "mutant $name: $(header "$m" promise)"
	killed=""
	if ! prepare "$m" 2>"$logs/$name-apply.log"; then
		killed="(does not apply: see $logs/$name-apply.log)"
		survived=$((survived + 1))
	elif ! build "$(kind_of "$m")" >"$logs/$name-build.log" 2>&1; then
		killed="(does not build: see $logs/$name-build.log)"
		survived=$((survived + 1))
	else
		for g in $(header "$m" guests); do
			# shellcheck disable=SC2046
			killed=$(run_tests "$logs/$name-$g.tap" "$(kind_of "$m")" "$g" $(header "$m" tests))
			[ -z "$killed" ] || break
		done
		if [ -z "$killed" ]; then
			killed="SURVIVED"
			survived=$((survived + 1))
		fi
	fi
	rows+=("$name | $(header "$m" promise) | $killed")
done
prepare

printf '\n| mutant | promise | killed by |\n|---|---|---|\n'
printf '| %s |\n' "${rows[@]}"
printf '\n%d mutants, %d survived' "$((${#rows[@]} - other))" "$survived"
[ "$other" = 0 ] || printf ' (%d more for another tree, not run on %s)' "$other" "$(kver)"
printf '\n'
[ "$survived" = 0 ]
