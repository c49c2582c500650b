# SPDX-License-Identifier: GPL-2.0
# Shared setup for every test file. The guest installs tests-bats/lib/ as
# the bats library "pci-mwi" (this file its load.bash), so built-in tests
# and TESTS_EXTRA files load it with
#   bats_load_library pci-mwi
# This file: the functions, their drivers and sysfs, the kernel log and
# <debugfs>/pci/mwi; then, by concern, sim.bash (the emulated bus,
# fixtures/pci-mwi-sim), trace.bash (the trace event, tracefs),
# udev.bash (udevd) and names.bash (device names, lspci's and mwictl's).
# The guest exports MWI_MACHINE (the guest's name, qemu/guests/).

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
# file of slot $1 in ONE write(2), run through the command $3... if given
# (as_nobody, as_root_without_caps, unshare ...). The bytes go to a file
# first and dd copies them as one block: a shell's printf would write
# "1\n\n" as two lines, two writes. "1+0 records out" says the kernel took
# the block whole. Prints dd's error, if any.
write_mwi() {
	local slot=$1 bytes=$2 input size out rc=0
	shift 2
	input=$(mktemp)
	printf '%b' "$bytes" >"$input"
	chmod 0644 "$input"
	size=$(stat -c %s "$input")
	if [ "$size" -eq 0 ]; then
		rm -f "$input"
		echo "write_mwi: no bytes to write (a zero-byte write never reaches the store)" >&2
		return 1
	fi
	out=$("$@" dd if="$input" of="$(mwi_file "$slot")" bs="$size" count=1 \
		conv=notrunc 2>&1) || rc=$?
	rm -f "$input"
	if [ "$rc" -ne 0 ]; then
		printf '%s\n' "$out"
		return "$rc"
	fi
	case "$out" in
	*"1+0 records out"*) ;;
	*) printf 'write_mwi: %s bytes were not one write: %s\n' "$size" "$out"; return 1 ;;
	esac
}

# Run a command as the unprivileged user nobody (uid/gid 65534).
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# Run a command as root with every capability dropped.
as_root_without_caps() {
	setpriv --inh-caps=-all --bounding-set=-all "$@"
}

# Run a command as root with every capability but CAP_SYS_ADMIN (dropped
# from the bounding set, so execve() leaves it out of the permitted and
# effective sets too).
as_root_without_sys_admin() {
	setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin "$@"
}

# Run a command as root with CAP_SYS_ADMIN and no other capability.
as_root_with_only_sys_admin() {
	setpriv --inh-caps=-all --bounding-set=-all,+sys_admin "$@"
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

# The driver bound to slot $1, or - when none is.
driver_of() {
	if [ -e "$SYSFS_PCI/$1/driver" ]; then
		basename "$(readlink "$SYSFS_PCI/$1/driver")"
	else
		echo -
	fi
}

# QEMU's functions with the mwi attribute and no driver bound: a write
# reaches them. On pc the host bridge and the ISA bridge are among them.
unbound_mwi_slots() {
	local slot
	for slot in $(qemu_mwi_slots); do
		[ -e "$SYSFS_PCI/$slot/driver" ] || echo "$slot"
	done
	return 0
}

# QEMU's functions with the mwi attribute and a driver bound: a write fails
# with EBUSY (on pc: 8139cp, e1000, sym53c8xx, ehci-pci).
bound_mwi_slots() {
	local slot
	for slot in $(qemu_mwi_slots); do
		[ -e "$SYSFS_PCI/$slot/driver" ] && echo "$slot"
	done
	return 0
}

# The function the input and write tests write to: the first one with the
# mwi attribute and no driver.
input_slot() {
	unbound_mwi_slots | head -1
}

# The guest's NICs by vendor:device: the e1000 functions on pc (one behind
# the bridge), the PCI Express e1000e functions on q35.
nic_id() {
	if conventional_pci; then
		echo 8086:100e
	else
		echo 8086:10d3
	fi
}

# One byte at offset $2 of slot $1's first I/O port BAR (the resourceN
# file whose flags have IORESOURCE_IO), as two hex digits: a device
# register read now, e.g. CTEST3 (0x1b) of a 53c8xx SCSI chip.
read_io_byte() {
	local _start _end flags byte i=0
	while read -r _start _end flags; do
		if (( flags & 0x100 )); then
			byte=$(dd if="$SYSFS_PCI/$1/resource$i" bs=1 skip=$(($2)) count=1 \
				status=none | od -An -tx1 | tr -d ' \n')
			[ -n "$byte" ] || { echo "$1: cannot read byte $2 of resource$i" >&2; return 1; }
			echo "$byte"
			return 0
		fi
		i=$((i + 1))
	done <"$SYSFS_PCI/$1/resource"
	echo "$1 has no I/O port BAR" >&2
	return 1
}

# Kernel log messages at level $1 or more urgent (0 emerg ... 6 info,
# 7 debug), without their level prefix.
kernel_log() {
	dmesg -r | awk -v max="$1" 'match($0, /^<[0-9]+>/) {
		if (substr($0, 2, RLENGTH - 2) % 8 <= max)
			print substr($0, RLENGTH + 1)
	}'
}

# ---- <debugfs>/pci/mwi ----

MWI_TABLE=/sys/kernel/debug/pci/mwi

# Slot $1's row of the table.
mwi_table_row() {
	grep "^$1 " "$MWI_TABLE"
}

# Column $2 of slot $1's row: possible, hw, cls, policy or driver.
mwi_table_field() {
	local col
	case "$2" in
	possible) col=2 ;;
	hw) col=3 ;;
	cls) col=4 ;;
	policy) col=5 ;;
	driver) col=6 ;;
	*) echo "mwi_table_field: no column $2" >&2; return 1 ;;
	esac
	mwi_table_row "$1" | awk -v col="$col" '{ print $col }'
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

for _pci_mwi_lib in sim trace udev names; do
	# shellcheck source=/dev/null
	. "${BASH_SOURCE[0]%/*}/$_pci_mwi_lib.bash"
done
unset _pci_mwi_lib
