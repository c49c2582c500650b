# SPDX-License-Identifier: GPL-2.0
# Shared setup for every test file. The guest installs this file as the bats
# library "pci-mwi", so built-in tests and TESTS_EXTRA files load it with
#   bats_load_library pci-mwi
# The guest exports MWI_MACHINE (pc, q35, sim or nodebugfs).

bats_require_minimum_version 1.5.0
bats_load_library bats-support
bats_load_library bats-assert

SYSFS_PCI=${SYSFS_PCI:-/sys/bus/pci/devices}

# Every PCI function the kernel knows, one slot per line.
pci_slots() {
	ls "$SYSFS_PCI"
}

# Slots of the devices bound to driver $1.
slots_of_driver() {
	local link
	for link in /sys/bus/pci/drivers/"$1"/*:*; do
		[ -e "$link" ] && basename "$link"
	done
}

# First slot whose vendor:device is $1 (e.g. 10ec:8139).
slot_of_id() {
	lspci -D -n -d "$1" | awk 'NR == 1 { print $1 }'
}

mwi_file() {
	printf '%s/%s/mwi\n' "$SYSFS_PCI" "$1"
}

# Every function that has the mwi attribute (not PCI Express, not a VF).
mwi_slots() {
	local slot
	for slot in $(pci_slots); do
		[ -e "$(mwi_file "$slot")" ] && echo "$slot"
	done
	return 0
}

# PCI_COMMAND and Cache Line Size, read through libpci (not through the
# mwi attribute), as "COMMAND CLS" in hex: one setpci, which prints one
# line per register.
registers() {
	local regs
	regs=$(setpci -s "$1" COMMAND CACHE_LINE_SIZE)
	printf '%s\n' "${regs//$'\n'/ }"
}

# lspci's view of MWI: 1 for MemWINV+, 0 for MemWINV-.
lspci_mwi() {
	case "$(lspci -vv -s "$1" | grep -o 'MemWINV[+-]')" in
	MemWINV+) echo 1 ;;
	MemWINV-) echo 0 ;;
	*) echo "lspci shows no MemWINV for $1" >&2; return 1 ;;
	esac
}

# Write the bytes of $2 (printf %b escapes, so "1\0" has a NUL) to the mwi
# file of slot $1 in one write(2). Prints the shell's error, if any.
write_mwi() {
	bash -c 'printf "%b" "$2" >"$1"' write_mwi "$(mwi_file "$1")" "$2"
}

# Run a command as the unprivileged user nobody (uid/gid 65534).
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# Run a command as root with every capability dropped.
as_root_without_caps() {
	setpriv --inh-caps=-all --bounding-set=-all "$@"
}

# True on the guests with QEMU's conventional PCI devices (i440FX): pc, and
# nodebugfs, the same machine on the CONFIG_DEBUG_FS=n kernel.
conventional_pci() {
	[ "$MWI_MACHINE" = pc ] || [ "$MWI_MACHINE" = nodebugfs ]
}

# Functions of QEMU's own devices (PCI domain 0000).
qemu_slots() {
	pci_slots | grep '^0000:'
}

# Functions of QEMU's own devices that have the mwi attribute: those
# where MWI can exist (not PCI Express).
qemu_mwi_slots() {
	mwi_slots | grep '^0000:'
}

# True when lspci shows a PCI Express capability on slot $1.
is_pcie() {
	lspci -vv -s "$1" | grep -q 'Express (v'
}

# The function the input tests write to: the guest's first NIC on pc; on
# q35, whose NICs are PCI Express, the first function with the attribute.
input_slot() {
	if conventional_pci; then
		slot_of_id 10ec:8139
	else
		qemu_mwi_slots | head -1
	fi
}

# Assert that writing $2 to slot $1's mwi fails with EINVAL and leaves
# PCI_COMMAND and the cache line size as they were.
assert_mwi_rejects() {
	local before
	before=$(registers "$1")
	run write_mwi "$1" "$2"
	assert_failure
	assert_output --partial "Invalid argument"
	assert_equal "$(registers "$1")" "$before"
}

# ---- the emulated bus (qemu/pci-mwi-sim) ----

SIM_KO=/usr/lib/pci-mwi/pci-mwi-sim.ko
SIM_DEBUGFS=/sys/kernel/debug/pci-mwi-sim

# Load the emulator; arguments are module parameters (devices=...).
sim_load() {
	insmod "$SIM_KO" "$@"
}

sim_unload() {
	if grep -q '^pci_mwi_sim ' /proc/modules; then
		rmmod pci_mwi_sim
	fi
}

# Slots of the emulated functions, one per line.
sim_slots() {
	ls "$SIM_DEBUGFS"
}

# The first emulated function with personality $1 on bus 00 (or the
# bridge's child with "child").
sim_slot() {
	local dir
	for dir in "$SIM_DEBUGFS"/*; do
		case "$1:$(basename "$dir")" in
		child:*:00:*) continue ;;
		child:*) basename "$dir"; return ;;
		*:*:00:*) [ "$(cat "$dir/personality")" = "$1" ] && { basename "$dir"; return; } ;;
		esac
	done
	return 1
}

# Read slot $1's mwi attribute with a single read(2) (busybox cat retries
# a failed sendfile with read, which would hide a one-shot fault).
read_mwi() {
	dd if="$(mwi_file "$1")" bs=16 count=1 status=none
}

# Read, or with a value write, one debugfs knob of slot $1.
sim_knob() {
	if [ $# -eq 3 ]; then
		printf '%s' "$3" >"$SIM_DEBUGFS/$1/$2"
	else
		cat "$SIM_DEBUGFS/$1/$2"
	fi
}

# The emulator's own view of COMMAND and cache line size (bytes); reading
# it does no config access.
sim_registers() {
	printf '%s %s\n' "$(sim_knob "$1" command)" "$(sim_knob "$1" cache_line_size)"
}

sim_reset_counts() {
	sim_knob "$1" reads 0
	sim_knob "$1" writes 0
}

# Config reads and writes since the last reset, as "R W".
sim_counts() {
	printf '%s %s\n' "$(sim_knob "$1" reads)" "$(sim_knob "$1" writes)"
}

# Let slot $1 runtime-suspend (power/control=auto) and wait until it is.
runtime_suspend() {
	local i status
	echo auto >"$SYSFS_PCI/$1/power/control"
	for ((i = 0; i < 100; i++)); do
		status=$(cat "$SYSFS_PCI/$1/power/runtime_status")
		[ "$status" = suspended ] && return 0
		sleep 0.05
	done
	echo "$1: runtime_status is $status, not suspended" >&2
	return 1
}

# Call a PCI core MWI function (set, try_set, clear, cacheline) on slot $1
# through the emulator and print its return value.
sim_api() {
	sim_knob "$1" api "$2"
	sim_knob "$1" api | awk -v op="$2" '$1 == op { print $2 }'
}

# ---- udev (tests/sim-udev.bats) ----

UDEVD=/usr/lib/systemd/systemd-udevd

# Start Debian's systemd-udevd and wait until it answers on its socket.
udevd_start() {
	local i
	"$UDEVD" --daemon
	for ((i = 0; i < 100; i++)); do
		udevadm control --ping 2>/dev/null && return 0
		sleep 0.1
	done
	echo "systemd-udevd does not answer" >&2
	return 1
}

udevd_stop() {
	udevadm control --exit 2>/dev/null || true
}

# Remove slot $1, rescan the buses, and wait until udevd has handled
# every event that caused.
udev_remove_and_rescan() {
	echo 1 >"$SYSFS_PCI/$1/remove"
	echo 1 >/sys/bus/pci/rescan
	udevadm settle --timeout=120
}

# ---- names (mwictl.bats) ----

# "SLOT CLASS: DEVICE" of every function as lspci prints it; arguments
# (-nn) go to lspci.
lspci_names() {
	lspci -D "$@" | sed 's/ (rev [0-9a-f]*)$//'
}

# The same from mwictl list's CLASS and DEVICE columns, cut at the offsets
# of its header.
mwictl_names() {
	mwictl list "$@" | awk -f /usr/lib/bats/pci-mwi/list-names.awk
}
