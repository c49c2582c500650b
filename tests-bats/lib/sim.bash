# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Part of the bats library "pci-mwi" (load.bash sources it).

# ---- the emulated bus (tests-bats/fixtures/pci-mwi-sim) ----

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
