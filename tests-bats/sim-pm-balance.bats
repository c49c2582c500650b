#!/usr/bin/env bats
# Runtime PM balance: whatever a write to mwi does (accepted, refused, failed
# on the bus, EBUSY under a driver, rejected input, no permission), and
# after reads of the attribute and of the debugfs table and writes with the
# trace event on, the function's runtime PM usage count is back where it
# was and the function suspends again. A path that skips its put leaves the
# count one too high and the function awake for good.

setup() {
	bats_load_library pci-mwi
	sim_load
	slot=$(sim_slot accepts)
	runtime_suspend "$slot"
	usage=$(runtime_usage "$slot")
}

teardown() {
	mwi_trace_stop 2>/dev/null || true
	sim_unload
}

# Slot $1's usage count is $usage again and it reaches "suspended".
assert_pm_balanced() {
	assert_equal "runtime_usage $(runtime_usage "$1")" "runtime_usage $usage"
	wait_runtime_suspended "$1"
}

@test "an accepted echo 1 and echo 0 leave the usage count as it was and the function suspends again" {
	run write_mwi "$slot" '1\n'
	assert_success
	assert_pm_balanced "$slot"
	run write_mwi "$slot" '0\n'
	assert_success
	assert_pm_balanced "$slot"
}

@test "a refused echo 1 (EOPNOTSUPP) leaves the usage count as it was and the function suspends again" {
	local refuses
	refuses=$(sim_slot refuses)
	runtime_suspend "$refuses"
	usage=$(runtime_usage "$refuses")
	run write_mwi "$refuses" '1\n'
	assert_failure
	assert_output --partial "Operation not supported"
	assert_pm_balanced "$refuses"
}

@test "an echo 1 whose config write fails leaves the usage count as it was and the function suspends again" {
	sim_knob "$slot" fail_code set_failed
	sim_knob "$slot" fail_writes 1
	run write_mwi "$slot" '1\n'
	assert_failure
	assert_output --partial "Input/output error"
	assert_pm_balanced "$slot"
}

# Awake (control=on), so that the resume's own config reads do not take
# the failure meant for the store's read of COMMAND.
@test "an echo 1 whose config read fails leaves the usage count as it was and the function suspends again" {
	echo on >"$SYSFS_PCI/$slot/power/control"
	usage=$(runtime_usage "$slot")
	sim_knob "$slot" fail_code set_failed
	sim_knob "$slot" fail_reads 1
	run write_mwi "$slot" '1\n'
	assert_failure
	assert_output --partial "Input/output error"
	assert_equal "runtime_usage $(runtime_usage "$slot")" "runtime_usage $usage"
	runtime_suspend "$slot"
}

@test "an echo 1 under a bound driver (EBUSY) leaves the usage count as it was and the function suspends after unbind" {
	sim_bind "$slot"
	usage=$(runtime_usage "$slot")
	run write_mwi "$slot" '1\n'
	assert_failure
	assert_output --partial "Device or resource busy"
	assert_equal "runtime_usage $(runtime_usage "$slot")" "runtime_usage $usage"
	sim_unbind "$slot"
	wait_runtime_suspended "$slot"
}

@test "rejected input (EINVAL) and a write without CAP_SYS_ADMIN (EPERM) leave the usage count as it was" {
	run write_mwi "$slot" '2\n'
	assert_failure
	assert_output --partial "Invalid argument"
	assert_pm_balanced "$slot"
	run write_mwi "$slot" '1\n' as_root_without_caps
	assert_failure
	assert_output --partial "Operation not permitted"
	assert_pm_balanced "$slot"
}

@test "cat mwi, a failed read of it, and a read of the debugfs table leave the usage count as it was" {
	run read_mwi "$slot"
	assert_success
	assert_pm_balanced "$slot"
	sim_knob "$slot" fail_code set_failed
	sim_knob "$slot" fail_reads 1
	run read_mwi "$slot"
	assert_failure
	assert_pm_balanced "$slot"
	cat "$MWI_TABLE" >/dev/null
	assert_pm_balanced "$slot"
}

@test "echo 1 and echo 0 with the trace event on leave the usage count as it was" {
	tracefs_mount
	[ -d "$MWI_EVENT" ] || skip "no $MWI_EVENT: this kernel has no tracing (CONFIG_FTRACE)"
	mwi_trace_start
	run write_mwi "$slot" '1\n'
	assert_success
	run write_mwi "$slot" '0\n'
	assert_success
	assert_equal "$(mwi_trace_events | wc -l)" 2
	assert_pm_balanced "$slot"
}
