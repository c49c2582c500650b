#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest half of "make bench": loads the emulator with 256 functions
# next to QEMU's devices, counts config accesses per operation and times
# whole commands. Prints markdown tables on stdout. bench.sh sends it
# after bench-lib.sh (median_ms, row).
set -u
export LC_ALL=C

SIM=/sys/kernel/debug/pci-mwi-sim
DEVICES=/sys/bus/pci/devices
insmod /usr/lib/pci-mwi/pci-mwi-sim.ko 'devices=accepts*128,refuses*127,stuck' || exit 1

# First emulated function of personality $1.
slot_of() {
	grep -l "^$1\$" "$SIM"/*/personality | head -1 | xargs dirname | xargs basename
}

A=$(slot_of accepts)
R=$(slot_of refuses)
S=$(slot_of stuck)

# Config "reads writes" of slot $1 while running the rest.
counts() {
	local slot=$1
	shift
	echo 0 >"$SIM/$slot/reads"
	echo 0 >"$SIM/$slot/writes"
	"$@" >/dev/null 2>&1
	echo "$(cat "$SIM/$slot/reads") $(cat "$SIM/$slot/writes")"
}

mwi() { # SLOT VALUE
	echo "$2" >"$DEVICES/$1/mwi"
}

access_row() { # NAME MINIMUM TARGET SLOT COMMAND...
	local name=$1 min=$2 target=$3 slot=$4 r w
	shift 4
	read -r r w < <(counts "$slot" "$@")
	printf '| %s | %s | %s | %s | %s |\n' "$name" "$r" "$w" "$min" "$target"
}

echo "### Config accesses per operation (counted by the emulator)"
echo
echo "| operation | reads | writes | minimum possible | target |"
echo "|---|---|---|---|---|"
access_row '`cat mwi`' "1 read" "= 1 read" "$A" cat "$DEVICES/$A/mwi"
access_row 'write of the current state (`echo 0`, off)' "1 read" "no write" "$A" mwi "$A" 0
access_row 'off → on (cache line size to program)' "4 reads, 2 writes" "" "$A" mwi "$A" 1
access_row 'on → off' "2 reads, 1 write" "" "$A" mwi "$A" 0
access_row 'off → on (cache line size already right)' "3 reads, 1 write" "" "$A" mwi "$A" 1
mwi "$A" 0
access_row 'refused `echo 1` (cache line size put back)' "4 reads, 3 writes" "" "$R" mwi "$R" 1
access_row 'refused `echo 0` (stuck bit)' "2 reads, 1 write" "" "$S" mwi "$S" 0
access_row '`mwictl get`' "1 read" "" "$A" mwictl get "$A"
access_row '`setpci -s SLOT COMMAND`' "1 read" "" "$A" setpci -s "$A" COMMAND
echo

# The commands compared; the last argument is the iteration number.
list_mwictl() { mwictl list -n; }
list_mwictl_names() { mwictl list; }
list_lspci() { lspci -vv | grep -E '^[0-9a-f]|MemWINV'; }
list_lspci_n() { lspci -n; }
list_lspci_names() { lspci; }
get_mwictl() { mwictl get "$A"; }
get_setpci() { setpci -s "$A" COMMAND; }
get_cat() { cat "$DEVICES/$A/mwi"; }
toggle_mwictl() { if (($1 % 2)); then mwictl off "$A"; else mwictl on "$A"; fi; }
toggle_setpci() { if (($1 % 2)); then setpci -s "$A" COMMAND=0x00:0x10; else setpci -s "$A" COMMAND=0x10:0x10; fi; }
toggle_echo() { if (($1 % 2)); then mwi "$A" 0; else mwi "$A" 1; fi; }

echo "### Whole commands in the guest (median of $RUNS runs, ms per operation)"
echo
echo "$(ls "$DEVICES" | wc -l) functions: QEMU's pc devices and 256 emulated ones."
echo
echo "| command | ms | ratio to the first of its group |"
echo "|---|---|---|"
base=$(median_ms 3 list_mwictl)
row '`mwictl list -n` (state of every function)' "$base" "$base"
row '`mwictl list` (names from libpci)' "$(median_ms 3 list_mwictl_names)" "$base"
row '`lspci -vv \| grep MemWINV` (same answer)' "$(median_ms 3 list_lspci)" "$base"
row '`lspci -n` (IDs and classes, no MWI state)' "$(median_ms 3 list_lspci_n)" "$base"
row '`lspci` (names, no MWI state)' "$(median_ms 3 list_lspci_names)" "$base"
base=$(median_ms 200 get_mwictl)
row '`mwictl get SLOT`' "$base" "$base"
row '`setpci -s SLOT COMMAND`' "$(median_ms 200 get_setpci)" "$base"
row '`cat mwi`' "$(median_ms 200 get_cat)" "$base"
base=$(median_ms 200 toggle_mwictl)
row '`mwictl on/off SLOT` (toggle, 1,000 in all)' "$base" "$base"
row '`setpci COMMAND=0x10:0x10` / `0x00:0x10` (toggle, unverified, 1,000 in all)' "$(median_ms 200 toggle_setpci)" "$base"
row '`echo 1/0 > mwi` (toggle, 10,000 in all)' "$(median_ms 2000 toggle_echo)" "$base"
echo
rmmod pci_mwi_sim
