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
	echo auto >"$SYSFS_PCI/$1/power/control"
	wait_runtime_suspended "$1"
}

# Wait up to 5 s for slot $1's runtime_status to say "suspended".
wait_runtime_suspended() {
	local i status
	for ((i = 0; i < 100; i++)); do
		status=$(cat "$SYSFS_PCI/$1/power/runtime_status")
		[ "$status" = suspended ] && return 0
		sleep 0.05
	done
	echo "$1: runtime_status is $status, not suspended" >&2
	return 1
}

# Slot $1's runtime PM usage count (power/runtime_usage, which needs
# CONFIG_PM_ADVANCED_DEBUG).
runtime_usage() {
	cat "$SYSFS_PCI/$1/power/runtime_usage"
}

# Call a PCI core MWI function (set, try_set, clear, cacheline, enabled) on
# slot $1 through the emulator and print its return value ("void" for
# try_set and clear, which return nothing; 1 or 0 for pci_mwi_enabled()).
sim_api() {
	sim_knob "$1" api "$2"
	sim_knob "$1" api | awk -v op="$2" '$1 == op { print $2 }'
}

# Bind the emulator's test driver to slot $1 through driver_override; its
# probe calls pcim_set_mwi() and keeps in probe_result what it returned
# and what pci_mwi_enabled() then said.
sim_bind() {
	sim_bind_as "$1" pci-mwi-sim
}

# Bind driver $2 of the emulator to slot $1 through driver_override:
# pci-mwi-sim (above), pci-mwi-sim-old (an old-style pci_set_mwi() caller,
# its probe's outcome in the old_probe knob) or pci-mwi-sim-noask (never
# asks for MWI).
sim_bind_as() {
	echo "$2" >"$SYSFS_PCI/$1/driver_override"
	echo "$1" >"/sys/bus/pci/drivers/$2/bind"
}

# Unbind whatever driver slot $1 has.
sim_unbind() {
	echo "$1" >"$SYSFS_PCI/$1/driver/unbind"
}

# ---- tracing (sim-trace.bats) ----

TRACEFS=/sys/kernel/tracing
MWI_EVENT=$TRACEFS/events/pci/pci_mwi_request
MWI_HIST=hist:keys=dev,caller.sym,new

# Mount tracefs on $TRACEFS unless it is mounted there. A kernel without
# tracing has no such directory; then there is nothing to mount.
tracefs_mount() {
	[ -d "$TRACEFS" ] || return 0
	[ -e "$TRACEFS/trace" ] || mount -t tracefs nodev "$TRACEFS"
}

# Empty the trace buffer and record pci_mwi_request events from now on.
mwi_trace_start() {
	echo 0 >"$MWI_EVENT/enable"
	: >"$TRACEFS/trace"
	echo 1 >"$MWI_EVENT/enable"
}

# Stop recording, remove the hist trigger if there is one, empty the buffer.
mwi_trace_stop() {
	echo 0 >"$MWI_EVENT/enable"
	echo "!$MWI_HIST" >"$MWI_EVENT/trigger" 2>/dev/null || true
	: >"$TRACEFS/trace"
}

# The recorded pci_mwi_request events, one a line, from the slot on:
# "SLOT requester=WHO old=O asked=A new=N err=E".

# The requester of a write to the sysfs mwi attribute: its store.
# shellcheck disable=SC2034 # read by the test files
SYSFS_REQUESTER='mwi_store\+0x[0-9a-f]+/0x[0-9a-f]+'

mwi_trace_events() {
	sed -n 's/^.* pci_mwi_request: //p' "$TRACEFS/trace"
}

# The function that clears MWI when a driver that called pcim_set_mwi()
# detaches: pcim_release() up to 6.10, from 6.11 pcim_set_mwi()'s release
# action __pcim_clear_mwi() in drivers/pci/devres.c.
pcim_release_function() {
	local v major minor
	v=$(uname -r)
	major=${v%%.*} minor=${v#*.} minor=${minor%%[!0-9]*}
	if [ "$major" -lt 6 ] || { [ "$major" = 6 ] && [ "$minor" -le 10 ]; }; then
		echo pcim_release
	else
		echo __pcim_clear_mwi
	fi
}

# The traced events are exactly the regular expressions given, in order.
assert_events() {
	local i=0 re
	run mwi_trace_events
	assert_equal "events: ${#lines[@]}" "events: $#"
	for re in "$@"; do
		assert_line --index "$i" --regexp "^$re\$"
		i=$((i + 1))
	done
}

PRINTK_EVENT=$TRACEFS/events/printk/console

# Empty the trace buffer and record every kernel message (printk:console)
# from now on.
console_trace_start() {
	echo 0 >"$PRINTK_EVENT/enable"
	: >"$TRACEFS/trace"
	echo 1 >"$PRINTK_EVENT/enable"
}

# Stop recording kernel messages; the buffer stays to be read.
console_trace_stop() {
	[ ! -e "$PRINTK_EVENT/enable" ] || echo 0 >"$PRINTK_EVENT/enable"
}

# The preemption depth recorded with every kernel message that contains
# $1, one a line: the fourth of the trace's flag characters ("d..1."), "."
# for none, else the depth in hex. The event is recorded in the context
# that called printk(). On a kernel that counts preemption but is not
# preemptible (PREEMPT_COUNT without PREEMPTION: the stress kernel) the
# tracepoint's own preempt_disable() is counted, so a message from process
# context reads 1, and every spinlock held by the caller adds one.
console_preempt_depths() {
	MSG="$1" awk 'index($0, " console: ") && index($0, ENVIRON["MSG"]) &&
		match($0, /\] [^ ]+ /) { print substr($0, RSTART + 5, 1) }' \
		"$TRACEFS/trace"
}

# The hitcount of the $MWI_HIST entry for slot $1, a requester whose
# symbol (without offset: "caller.sym") matches the extended regex $2, and
# new $3; 0 when there is no such entry.
mwi_hist_count() {
	HIST_RE="^\\{ dev: ${1//./\\.} *, caller: \\[[0-9a-f]+\\] $2 *, new: +$3 \\} hitcount: +[0-9]+\$" \
		awk '$0 ~ ENVIRON["HIST_RE"] { n = $NF } END { print n + 0 }' "$MWI_EVENT/hist"
}

# ---- udev (tests/sim-udev.bats) ----

UDEVD=/usr/lib/systemd/systemd-udevd

# Start Debian's systemd-udevd and wait until it answers on its socket.
# The daemon gets no descriptor of bats' (fd 3 is its TAP stream): bats
# waits for every holder of that stream to close it, so a daemon that
# outlived its test would hold the whole guest until the harness's timeout.
udevd_start() {
	local i
	"$UDEVD" --daemon </dev/null >/dev/null 2>&1 3>&-
	for ((i = 0; i < 100; i++)); do
		udevadm control --ping 2>/dev/null && return 0
		sleep 0.1
	done
	echo "systemd-udevd does not answer" >&2
	return 1
}

# The pids of systemd-udevd and its workers that have not exited, one per
# line. The guest has no procps (busybox has no pgrep), so /proc is read
# directly: "PID (COMM) STATE ...", where a zombie's STATE is Z.
udevd_pids() {
	local stat line name state
	for stat in /proc/[0-9]*/stat; do
		{ read -r line <"$stat"; } 2>/dev/null || continue
		name=${line#*\(}
		name=${name%\) *}
		state=${line##*\) }
		state=${state%% *}
		case "$name" in
		systemd-udevd | "(udev-worker)") ;;
		*) continue ;;
		esac
		[ "$state" != Z ] || continue
		echo "${line%% *}"
	done
}

# Ask systemd-udevd to exit and wait until it and its workers are gone, so
# that none of them handles the next test's "add" events; one that does
# not go within 10 s is killed, and the caller fails.
udevd_stop() {
	local i pids
	udevadm control --exit 2>/dev/null || true
	for ((i = 0; i < 100; i++)); do
		pids=$(udevd_pids)
		[ -n "$pids" ] || return 0
		sleep 0.1
	done
	# shellcheck disable=SC2086 # one pid per word
	kill -KILL $pids 2>/dev/null || true
	echo "systemd-udevd did not exit within 10 s; killed ${pids//$'\n'/ }" >&2
	return 1
}

# Remove slot $1, rescan the buses, and wait until udevd has handled
# every event that caused. A settle whose connection to udevd breaks
# ("Failed to wait for daemon to reply: Broken pipe", seen once on a
# loaded host) is asked again once, with udevd checked to be alive; the
# caller asserts what the events did.
udev_remove_and_rescan() {
	echo 1 >"$SYSFS_PCI/$1/remove"
	echo 1 >/sys/bus/pci/rescan
	udevadm settle --timeout=120 && return 0
	udevadm control --ping || return 1
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
