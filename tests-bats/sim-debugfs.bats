#!/usr/bin/env bats
# <debugfs>/pci/mwi with the emulated bus: rows come and go with devices,
# injected faults count as errors, the API's callers are named.

setup() {
	bats_load_library pci-mwi
	TABLE=/sys/kernel/debug/pci/mwi
}

teardown() {
	sim_unload
}

# Columns 4 to the end of slot $1's row (a module's requester has a space).
counters() {
	grep "^$1 " "$TABLE" | cut -d' ' -f4-
}

@test "rows for the emulated functions appear on load and disappear on unload" {
	sim_load
	assert_equal "$(grep -c '^1[0-9a-f]\{4\}:' "$TABLE")" 8
	assert_equal "$(grep -v '^#' "$TABLE" | awk '{ print $1 }')" "$(pci_slots | sort -t: -k1,1 -k2,2 -k3,3)"
	sim_unload
	assert_equal "$(grep -c '^1[0-9a-f]\{4\}:' "$TABLE")" 0
}

@test "a successful sysfs write counts as a request with ok and sysfs" {
	sim_load
	write_mwi "$(sim_slot accepts)" '1\n'
	assert_equal "$(counters "$(sim_slot accepts)")" "1 0 0 0 ok sysfs"
	assert_equal "$(grep "^$(sim_slot accepts) " "$TABLE" | awk '{ print $2, $3 }')" "on 64"
}

@test "a refused clear counts under refused" {
	sim_load
	write_mwi "$(sim_slot stuck)" '0\n' || true
	assert_equal "$(counters "$(sim_slot stuck)")" "0 1 0 1 -EINVAL sysfs"
}

@test "an injected write failure counts under errors with its errno" {
	sim_load
	sim_knob "$(sim_slot accepts)" fail_code set_failed
	sim_knob "$(sim_slot accepts)" fail_writes 1
	write_mwi "$(sim_slot accepts)" '1\n' || true
	assert_equal "$(counters "$(sim_slot accepts)")" "1 0 1 0 -EIO sysfs"
}

@test "a vanished device counts under errors with -ENODEV, and its row shows ? for hw and cls" {
	sim_load
	sim_knob "$(sim_slot accepts)" vanish 1
	write_mwi "$(sim_slot accepts)" '1\n' || true
	assert_equal "$(counters "$(sim_slot accepts)")" "1 0 1 0 -ENODEV sysfs"
	assert_equal "$(grep "^$(sim_slot accepts) " "$TABLE" | awk '{ print $2, $3 }')" "? ?"
}

@test "the API hook's calls name the emulator's function as the requester, not a wrapper" {
	sim_load
	sim_api "$(sim_slot refuses)" try_set
	assert_regex "$(counters "$(sim_slot refuses)")" '^1 1 0 0 -EINVAL sim_call_api\+0x[0-9a-f]+/0x[0-9a-f]+ \[pci_mwi_sim\]$'
}

@test "pcim_set_mwi() in a probe names the probe function, and unbinding counts a clear by pcim_release" {
	local slot
	sim_load
	slot=$(sim_slot accepts)
	echo pci-mwi-sim >"$SYSFS_PCI/$slot/driver_override"
	echo "$slot" >/sys/bus/pci/drivers/pci-mwi-sim/bind
	assert_regex "$(counters "$slot")" '^1 0 0 0 ok sim_probe\+'
	echo "$slot" >/sys/bus/pci/drivers/pci-mwi-sim/unbind
	assert_regex "$(counters "$slot")" '^1 0 0 1 ok pcim_release\+'
}

@test "reading the table while the emulator loads and unloads is safe" {
	local i
	( for i in $(seq 200); do cat "$TABLE" >/dev/null || exit 1; done ) &
	reader=$!
	for i in 1 2 3 4 5; do
		sim_load
		sim_unload
	done
	wait "$reader"
}
