# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Part of the bats library "pci-mwi" (load.bash sources it).

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
