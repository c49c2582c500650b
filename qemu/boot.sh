#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# boot.sh MACHINE MODE OUTDIR [EXTRA.cpio]
#
# Boot the guest MACHINE, as its manifest qemu/guests/MACHINE says (QEMU's
# machine and devices, the kernel, the tests): pc, q35, sim (a bare pc for
# the emulated bus's tests), nodebugfs (pc on the kernel built with
# CONFIG_DEBUG_FS=n), stress (a bare pc on the KASAN + lockdep kernel
# without device drivers) or field (pc on Debian's own stock kernel,
# unpatched: mwictl where most users first run it). DEBUG_KERNEL=1 boots
# any other machine on the debug kernel with drivers.
# MODE is check, run or shell (see qemu/init). The kernel console goes to
# OUTDIR/MACHINE-console.log, the guest's results channel (second serial
# port) to OUTDIR/MACHINE-results.log; in shell mode the console is this
# terminal; QEMU's own messages go to OUTDIR/MACHINE-qemu.log. EXTRA.cpio is appended to the initramfs.
#
# Environment: KERNEL, KERNEL_NODEBUGFS, KERNEL_STRESS, KERNEL_DEBUG, KERNEL_FIELD,
# INITRD, INITRD_STRESS, INITRD_DEBUG, INITRD_FIELD (default: under build/KVER/, field under build/), DEBUG_KERNEL, ACCEL (tcg, kvm, or auto, the default:
# kvm where it boots the kernel, see guest_accel in lib.sh),
# TIMEOUT (seconds; unset, the manifest's timeout), TIMEOUT_DEBUG (for
# DEBUG_KERNEL=1, default 3000: the sim guest took 2410 s on it), MEM
# (default 512M), ONLY_EXTRA (1: the guest runs only the extra tests).
set -eu
here=$(dirname "$0")
. "$here/lib.sh"

machine=$1
mode=$2
outdir=$3
extra_cpio=${4:-}

# Its machine, devices, kernel command line and time limit: the manifest
# qemu/guests/$machine.
load_guest "$machine"
image=$(guest_kernel "$machine")
accel=$(guest_accel "$image")
initrd=$(guest_initrd "$machine")
# The KASAN + lockdep kernel: debug_cmdline (panic_on_warn=1, so that any
# WARN() is fatal, unless the manifest says why not).
if debug_machine "$machine"; then
	cmdline+=("${debug_cmdline[@]}")
fi
if [ "${DEBUG_KERNEL:-0}" = 1 ]; then
	timeout=${TIMEOUT_DEBUG:-3000}
else
	timeout=${TIMEOUT:-$timeout}
fi
mkdir -p "$outdir"
# check mode: the guest's test list from its manifest (/test-files; a
# make test selection in EXTRA.cpio replaces it), after its initramfs.
if [ "$mode" = check ]; then
	list=$(mktemp -d)
	guest_tests "$machine" >"$list/test-files"
	reproducible_cpio "$list" -mindepth 1 >"$outdir/$machine-tests.cpio"
	rm -rf "$list"
	cat "$initrd" "$outdir/$machine-tests.cpio" ${extra_cpio:+"$extra_cpio"} >"$outdir/$machine-initrd.cpio"
	initrd="$outdir/$machine-initrd.cpio"
elif [ -n "$extra_cpio" ]; then
	cat "$initrd" "$extra_cpio" >"$outdir/$machine-initrd.cpio"
	initrd="$outdir/$machine-initrd.cpio"
fi

console="$outdir/$machine-console.log"
results="$outdir/$machine-results.log"
stderr="$outdir/$machine-qemu.log"
rm -f "$console" "$results" "$stderr"
cmd=(qemu-system-x86_64 -accel "$accel" -m "${MEM:-512M}" -smp 1
	-nodefaults -display none -no-reboot
	-kernel "$image" -initrd "$initrd"
	"${qemu[@]}")
# no_timer_check: under TCG on a busy host the kernel's IO-APIC timer
# check can miss its ticks and panic ("IO-APIC + timer doesn't work"), as
# one boot of a check-bisect run did beside a kernel build; virtual
# machines skip it.
append="console=ttyS0 panic=-1 no_timer_check ${cmdline[*]} mwi.machine=$machine mwi.mode=$mode mwi.timeout=$timeout"

if [ "$mode" = shell ]; then
	exec "${cmd[@]}" -serial mon:stdio -serial null -append "$append"
fi
rc=0
start=$SECONDS
timeout --foreground "$timeout" "${cmd[@]}" -serial "file:$console" \
	-serial "file:$results" -append "$append" </dev/null 2>"$stderr" || rc=$?
case "$rc" in
0) printf '# pci-mwi-seconds %s\n' "$((SECONDS - start))" >>"$results" ;;
124) printf '# pci-mwi-timeout %s\n' "$timeout" >>"$results" ;;
*) grep -v 'is not connected to host network' "$stderr" >&2 || true ;;
esac
exit 0
