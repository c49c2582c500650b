#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# boot.sh MACHINE MODE OUTDIR [EXTRA.cpio]
#
# Boot the guest kernel on MACHINE with its emulated devices: pc, q35,
# sim (a bare pc for the emulated bus's tests) or nodebugfs (pc on the
# kernel built with CONFIG_DEBUG_FS=n), or stress (a bare pc on the KASAN +
# lockdep kernel without device drivers), or field (pc on Debian's own
# stock kernel, unpatched: mwictl where most users first run it).
# DEBUG_KERNEL=1 boots any other machine on the debug kernel with drivers.
# MODE is check, run or shell (see qemu/init). The kernel console goes to
# OUTDIR/MACHINE-console.log, the guest's results channel (second serial
# port) to OUTDIR/MACHINE-results.log; in shell mode the console is this
# terminal; QEMU's own messages go to OUTDIR/MACHINE-qemu.log. EXTRA.cpio is appended to the initramfs.
#
# Environment: KERNEL, KERNEL_NODEBUGFS, KERNEL_STRESS, KERNEL_DEBUG, KERNEL_FIELD,
# INITRD, INITRD_STRESS, INITRD_DEBUG, INITRD_FIELD (default: under build/KVER/, field under build/), DEBUG_KERNEL, ACCEL (tcg, kvm, or auto, the default:
# kvm where it boots the kernel, see guest_accel in lib.sh),
# TIMEOUT (seconds, default 1500: the sim guest, the longest, took over
# 900 s in a cold make check beside the other guests and the host checks,
# about 1000 s to its end), TIMEOUT_DEBUG (for the debug kernel,
# default 1500: the stress guest took 659 s beside the others), MEM
# (default 512M), ONLY_EXTRA (1: the guest runs only the extra tests).
set -eu
here=$(dirname "$0")
. "$here/lib.sh"

machine=$1
mode=$2
outdir=$3
extra=${4:-}
timeout=${TIMEOUT:-1500}

kernel=$(guest_kernel "$machine")
accel=$(guest_accel "$kernel")
initrd=$(guest_initrd "$machine")
append=""
if debug_machine "$machine"; then
	# The KASAN + lockdep kernel, where any WARN() is fatal, except on pc:
	# there mwi-policy.bats unbinds sym53c8xx, whose remove path warns in
	# the base kernel (qemu/known-warnings). The console check still fails
	# the pc guest on any other warning.
	[ "$machine" = pc ] || append="panic_on_warn=1"
	timeout=${TIMEOUT_DEBUG:-1500}
fi
# QEMU options are comma-separated lists: one array element each.
# shellcheck disable=SC2054
case "$machine" in
pc | nodebugfs | field)
	# Conventional PCI: here MWI exists. A bridge with a device behind it.
	# nodebugfs: the same, on the kernel built with CONFIG_DEBUG_FS=n;
	# field: the same, on Debian's stock kernel.
	devices=(-M pc
		-netdev hubport,id=n0,hubid=0 -device rtl8139,netdev=n0
		-netdev hubport,id=n1,hubid=1 -device e1000,netdev=n1
		-device lsi53c895a
		-device usb-ehci
		-device pci-bridge,id=br1,chassis_nr=1
		-netdev hubport,id=n2,hubid=2 -device e1000,netdev=n2,bus=br1,addr=3)
	;;
q35)
	# PCI Express: the specification hardwires MWI to zero.
	# The guest kernel has no ACPI, so it drives the root port's hotplug
	# natively (pciehp): QEMU must too, or the slot reads as empty and
	# pciehp powers the e1000e behind it off.
	devices=(-M q35 -global ICH9-LPC.acpi-pci-hotplug-with-bridge-support=off
		-netdev hubport,id=n0,hubid=0 -device e1000e,netdev=n0
		-device pcie-root-port,id=rp1,chassis=1
		-netdev hubport,id=n1,hubid=1 -device e1000e,netdev=n1,bus=rp1)
	;;
sim | stress)
	# The emulated bus brings its own devices: a bare pc is enough.
	devices=(-M pc)
	;;
*) die "unknown machine '$machine' (pc, q35, sim, nodebugfs, stress or field)" ;;
esac

mkdir -p "$outdir"
if [ -n "$extra" ]; then
	cat "$initrd" "$extra" >"$outdir/$machine-initrd.cpio"
	initrd="$outdir/$machine-initrd.cpio"
fi

console="$outdir/$machine-console.log"
results="$outdir/$machine-results.log"
stderr="$outdir/$machine-qemu.log"
rm -f "$console" "$results" "$stderr"
qemu=(qemu-system-x86_64 -accel "$accel" -m "${MEM:-512M}" -smp 1
	-nodefaults -display none -no-reboot
	-kernel "$kernel" -initrd "$initrd"
	"${devices[@]}")
# no_timer_check: under TCG on a busy host the kernel's IO-APIC timer
# check can miss its ticks and panic ("IO-APIC + timer doesn't work"), as
# one boot of a check-bisect run did beside a kernel build; virtual
# machines skip it.
# sym53c8xx.verb=2 makes sym53c8xx log the chip registers it programs;
# settle=0 skips its 3 s wait after the SCSI bus reset (no disks attached).
append="console=ttyS0 panic=-1 no_timer_check sym53c8xx.verb=2 sym53c8xx.settle=0 mwi.machine=$machine mwi.mode=$mode mwi.timeout=$timeout $append"
[ "${ONLY_EXTRA:-0}" = 1 ] && append="$append mwi.only=extra"

if [ "$mode" = shell ]; then
	exec "${qemu[@]}" -serial mon:stdio -serial null -append "$append"
fi
rc=0
start=$SECONDS
timeout --foreground "$timeout" "${qemu[@]}" -serial "file:$console" \
	-serial "file:$results" -append "$append" </dev/null 2>"$stderr" || rc=$?
case "$rc" in
0) printf '# pci-mwi-seconds %s\n' "$((SECONDS - start))" >>"$results" ;;
124) printf '# pci-mwi-timeout %s\n' "$timeout" >>"$results" ;;
*) grep -v 'is not connected to host network' "$stderr" >&2 || true ;;
esac
exit 0
