#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh OUTDIR
#
# "make bench": config accesses per operation and whole-command times in a
# guest with the emulator at 256 functions (qemu/tools/bench-guest.sh), each
# guest's boot-to-first-test time (and the pc guest's on each other tree
# of KVERS, whose kernel is OUTDIR/KVER/kobj), and the developer loop on
# the host, all with both trees and a TESTS_EXTRA directory: CI's cold
# first run (CI=true bash .ci/run) on a clean clone, then warm "make
# check", after editing one patch's message in both series, after editing
# its code in both, and FORCE=1 with a busy loop on one CPU (BENCH_HOG=0
# leaves that row out; BENCH_LOOP=0 the whole developer loop). Prints a
# markdown report and writes it to OUTDIR/bench.md.
set -eu -o pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"

outdir=$(realpath -m "$1")
report="$outdir/bench.md"
mkdir -p "$outdir"

seconds_since() {
	awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'
}

# Seconds from starting QEMU to the first finished test on guest $1.
boot_to_first_test() {
	local machine=$1 dir="$outdir/boot" t0 t pid
	mkdir -p "$dir"
	rm -f "$dir/$machine-results.log"
	t0=$EPOCHREALTIME
	"$here/boot.sh" "$machine" check "$dir" &
	pid=$!
	t=timeout
	while kill -0 "$pid" 2>/dev/null; do
		if grep -q '^ok ' "$dir/$machine-results.log" 2>/dev/null; then
			t=$(seconds_since "$t0")
			# Stop the guest: the rest of its tests are not timed here.
			pkill -TERM -P "$pid" || true
			break
		fi
		sleep 0.02
	done
	wait "$pid" || true
	echo "$t"
}

# Seconds the command "$3..." (NAME=VALUE words first, as env takes them)
# takes in the clone $1, with the log in $2. The result ("green" or "red")
# goes to $2.result.
time_check() {
	local clone=$1 log=$2 t0
	shift 2
	t0=$EPOCHREALTIME
	if (cd "$clone" && env "$@") >"$log" 2>&1; then
		echo green >"$log.result"
	else
		echo red >"$log.result"
		say "$* failed in $clone (see $log)"
	fi
	seconds_since "$t0"
}

# A busy loop on one CPU until the file $1 disappears.
cpu_hog() {
	while [ -e "$1" ]; do :; done
}

# One row: what, seconds (with green/red and the run's summary line), the
# figure before, the target.
loop_row() {
	local what=$1 t=$2 log=$3 old=$4 target=$5 summary
	summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1 || true)
	echo "| $what | $t ($(cat "$log.result"): ${summary:-no summary line}) | $old | $target |"
}

# The developer loop, in a clean clone of this repository's HEAD, with a
# TESTS_EXTRA directory throughout (the README's option for one's own
# tests). The first run is CI's own: CI=true bash .ci/run.
host_loop() {
	local clone="$outdir/clone" extra="$outdir/extra" t hog
	rm -rf "$clone" "$extra"
	git clone -q "$here/.." "$clone"
	mkdir -p "$extra"
	printf '@test "an extra test sees the PCI functions" {\n\t[ -d /sys/bus/pci/devices ]\n}\n' \
		>"$extra/extra.bats"
	say "bench: cold CI=true .ci/run in $clone"
	t=$(time_check "$clone" "$outdir/cold.log" CI=true TESTS_EXTRA="$extra" bash .ci/run)
	loop_row "cold: \`CI=true bash .ci/run\` on a clean clone, packages present, both trees" "$t" \
		"$outdir/cold.log" "1843 (072e547, 6.1 only, this host)" "≤ 3000"
	say "bench: warm make check"
	t=$(time_check "$clone" "$outdir/warm.log" make check TESTS_EXTRA="$extra")
	loop_row "warm \`make check\`, nothing changed" "$t" "$outdir/warm.log" "583.8 (v1, Xeon)" "≤ 60"
	# A fix goes to every series: each edit is made in the patch of each
	# tree that holds the text (sym53c8xx's patch: 3-pci/0002 on 7.2, 0006
	# on 6.12), found by its content, not its number.
	mapfile -t patches < <(grep -rlF 'not using Write and Invalidate\n' "$clone"/kernel-patches)
	sed -i '0,/^Signed-off-by:/s//Reviewed-by: bench <bench@localhost>\nSigned-off-by:/' "${patches[@]}"
	say "bench: make check after editing the message of the sym53c8xx patch in every series"
	t=$(time_check "$clone" "$outdir/message.log" make check TESTS_EXTRA="$extra")
	loop_row "\`make check\` after editing one patch's message in every series" "$t" "$outdir/message.log" \
		"594.7 (v1, Xeon)" "≤ 300"
	# A change to source that compiles to the same objects: sym53c8xx's
	# dev_dbg() text (no dynamic debug in the guest kernels). Every tree is
	# rebuilt, no kernel changes, no guest reruns.
	sed -i '0,/not using Write and Invalidate\\n/s//not using Write and Invalidate.\\n/' "${patches[@]}"
	say "bench: make check after editing a dev_dbg() text of the sym53c8xx patch in every series"
	t=$(time_check "$clone" "$outdir/code.log" make check TESTS_EXTRA="$extra")
	loop_row "\`make check\` after editing one patch's code in every series, to the same objects (a \`dev_dbg()\` text in the sym53c8xx patch: no guest reruns)" "$t" \
		"$outdir/code.log" "—" "≤ 300"
	# A change to compiled code: the PCI core's warning when PCI_COMMAND
	# cannot be restored (its test matches the words before
	# the errno; 3-pci/0005 on 7.2, 0009 on 6.12). Every patched kernel
	# changes, so every guest but field (Debian's kernel) reruns.
	mapfile -t patches < <(grep -rlF 'cannot restore PCI_COMMAND (%pe)' "$clone"/kernel-patches)
	sed -i 's/cannot restore PCI_COMMAND (%pe)\\n/cannot restore PCI_COMMAND: %pe\\n/' "${patches[@]}"
	say "bench: make check after editing the PCI core's code in every series"
	t=$(time_check "$clone" "$outdir/core.log" make check TESTS_EXTRA="$extra")
	loop_row "\`make check\` after editing one patch's compiled code in every series (a \`pci_warn()\` text in pci.c: every guest but field reruns)" "$t" \
		"$outdir/core.log" "345.3 (one tree, a driver edit, 4 guests)" "—"
	if [ "${BENCH_HOG:-1}" = 0 ]; then
		echo "| \`FORCE=1 make check\` with a busy loop on one of the 2 CPUs | not measured (BENCH_HOG=0) | stress guest timed out | green |"
	else
		hog=$outdir/hog
		touch "$hog"
		cpu_hog "$hog" &
		say "bench: FORCE=1 make check with a busy loop on one CPU"
		t=$(time_check "$clone" "$outdir/hog.log" make check TESTS_EXTRA="$extra" FORCE=1)
		rm -f "$hog"
		wait
		loop_row "\`FORCE=1 make check\` with a busy loop on one of the 2 CPUs" "$t" "$outdir/hog.log" \
			"stress guest timed out (v1)" "green"
	fi
	rm -rf "$clone"
}

{
	echo "# pci-mwi benchmark"
	echo
	echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) CPUs ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)),"
	echo "$(free -g | awk '/^Mem:/ { print $2 }') GiB, $(qemu-system-x86_64 --version | head -1), accel $(guest_accel "$(guest_kernel pc)")."
	echo
	say "bench: guest measurements"
	TIMEOUT=1200 "$here/run.sh" "$outdir/guest" pc "$(cat "$here/tools/bench-lib.sh" "$here/tools/bench-guest.sh")"
	echo "Targets: \`cat mwi\` = 1 config read; \`mwictl list\` at least 5× faster than \`lspci -vv\`"
	echo "for the same answer (ratio ≤ 0.2)."
	echo
	say "bench: mwictl on the host"
	# mwictl 1.0 as released (the commit before libpci) and 2.1 (the last
	# with its own sysfs walk), for the before/after rows
	for old in 1.0:d047bf8 2.1:70211fb; do
		rm -rf "$outdir/mwictl-${old%%:*}"
		mkdir -p "$outdir/mwictl-${old%%:*}"
		git -C "$here/.." archive "${old#*:}" userspace | tar -x -C "$outdir/mwictl-${old%%:*}"
		make -s -C "$outdir/mwictl-${old%%:*}/userspace" mwictl >/dev/null
	done
	"$here/tools/bench-host.sh" "$here/../userspace/mwictl" "$outdir/mwictl-1.0/userspace/mwictl" \
		"$outdir/mwictl-2.1/userspace/mwictl"
	echo "### Boot to first finished test (s)"
	echo
	echo "| guest | seconds | target |"
	echo "|---|---|---|"
	for m in pc q35 sim nodebugfs stress field; do
		label="$m on $(kver)"
		[ "$m" != stress ] || label="stress on $(kver) (KVER's KASAN + lockdep kernel)"
		[ "$m" != field ] || label="field (Debian 13's stock 6.12 kernel)"
		say "bench: boot-to-first-test on $m"
		echo "| $label | $(boot_to_first_test "$m") | ≤ 3 |"
	done
	for t in $KVERS; do
		[ "$t" != "$(kver)" ] || continue
		say "bench: boot-to-first-test on pc, $t"
		echo "| pc on $t | $(KVER=$t KERNEL="$outdir/$t/kobj/arch/x86/boot/bzImage" \
			INITRD="$outdir/$t/initramfs.cpio" boot_to_first_test pc) | ≤ 3 |"
	done
	echo
	if [ "${BENCH_LOOP:-1}" != 0 ]; then
		echo "### Developer loop on the host (s)"
		echo
		echo "| run | seconds (result) | before | target |"
		echo "|---|---|---|---|"
		host_loop
		echo
		echo "Before: \"v1\" is the harness before its second version, measured on an earlier"
		echo "2-CPU Xeon host (2026-12-03 04:30 UTC); 8b7ecbd is the last commit before this"
		echo "loop's changes, the same CI run on this host."
	fi
} | tee "$report"
say "bench: report in $report"
