#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-host.sh MWICTL [OLD_MWICTL [V21_MWICTL]]
#
# The host half of mwictl's figures in "make bench": the commands the guest
# times, run on this machine against a fake sysfs tree of 262 functions (no
# emulation: what a user's machine costs). mwictl is dynamically linked
# against libpci like lspci and setpci, so the two compare like with like.
# OLD_MWICTL, if given, is mwictl 1.0 (static, its own pci.ids reader and
# filters), timed beside it; V21_MWICTL, if given, is mwictl 2.1 (its own
# walk of bus/pci/devices and reads of the ID files, libpci for names and
# filters only), beside the current one that enumerates through libpci
# (pci_scan_bus(), pci_fill_info()). Prints a markdown table on stdout.
set -eu
export LC_ALL=C
mwictl=$(realpath "$1")
old=${2:+$(realpath "$2")}
v21=${3:+$(realpath "$3")}
. "$(dirname "$0")/bench-lib.sh"
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT

# 6 functions like QEMU's pc machine and 256 like the emulator's.
make_tree() {
	local devs=$tree/bus/pci/devices n dir
	mkdir -p "$devs"
	for ((n = 0; n < 262; n++)); do
		dir=$devs/$(printf '0000:%02x:%02x.%x' $((n / 256)) $((n / 8 % 32)) $((n % 8)))
		mkdir -p "$dir"
		if ((n < 6)); then
			set -- 0x8086 0x100e 0x020000
		else
			set -- 0x1b36 0xe000 0x088000
		fi
		echo "$1" >"$dir/vendor"
		echo "$2" >"$dir/device"
		echo "$3" >"$dir/class"
		echo 0x01 >"$dir/revision"
		echo 0 >"$dir/mwi"
		head -c 64 /dev/zero >"$dir/config"
	done
}

make_tree
export MWICTL_SYSFS=$tree
slot=0000:00:07.0

# The commands compared; median_ms adds an iteration number they ignore.
mwictl_list_n() { "$mwictl" list -n; }
mwictl_list() { "$mwictl" list; }
old_list() { "$old" list; }
v21_list_n() { "$v21" list -n; }
v21_list() { "$v21" list; }
lspci_n() { lspci -A linux-sysfs -O "sysfs.path=$tree/bus/pci" -n; }
lspci_names() { lspci -A linux-sysfs -O "sysfs.path=$tree/bus/pci"; }
lspci_vv() { lspci -A linux-sysfs -O "sysfs.path=$tree/bus/pci" -vv | grep -E '^[0-9a-f]|MemWINV'; }
mwictl_get() { "$mwictl" get "$slot"; }
old_get() { "$old" get "$slot"; }
lspci_slot() { lspci -A linux-sysfs -O "sysfs.path=$tree/bus/pci" -n -s "$slot"; }

echo "### Whole commands on the host (median of $RUNS runs, ms per command)"
echo
echo "This machine, no emulation: a fake sysfs tree of 262 functions; mwictl,"
echo "lspci and setpci all dynamically linked against libpci ($(ldd "$mwictl" |
	grep -o 'libpci[^ ]*' | head -1))."
echo
echo "| command | ms | ratio to the first of its group |"
echo "|---|---|---|"
base=$(median_ms 20 mwictl_list_n)
row '`mwictl list -n` (functions, IDs, drivers from libpci)' "$base" "$base"
[ -z "$v21" ] || row '`mwictl list -n` of mwictl 2.1 (its own sysfs walk)' "$(median_ms 20 v21_list_n)" "$base"
row '`mwictl list` (names from libpci)' "$(median_ms 20 mwictl_list)" "$base"
[ -z "$v21" ] || row '`mwictl list` of mwictl 2.1 (its own sysfs walk)' "$(median_ms 20 v21_list)" "$base"
[ -z "$old" ] || row '`mwictl list` of mwictl 1.0 (static, own pci.ids reader)' "$(median_ms 20 old_list)" "$base"
row '`lspci -n`' "$(median_ms 20 lspci_n)" "$base"
row '`lspci` (names)' "$(median_ms 20 lspci_names)" "$base"
row '`lspci -vv \| grep MemWINV` (the MWI state, as in the guest)' "$(median_ms 20 lspci_vv)" "$base"
base=$(median_ms 300 mwictl_get)
row '`mwictl get SLOT`' "$base" "$base"
[ -z "$old" ] || row '`mwictl get SLOT` of mwictl 1.0 (static)' "$(median_ms 300 old_get)" "$base"
row '`lspci -n -s SLOT`' "$(median_ms 300 lspci_slot)" "$base"
echo
