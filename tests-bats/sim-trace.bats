#!/usr/bin/env bats
# The pci:pci_mwi_request trace event: one line per request that reached
# the PCI core, "SLOT requester=WHO old=O asked=A new=N err=E": the event
# records the requester's address (the caller of the PCI core function,
# the attribute's store for sysfs) and prints it as a symbol when the
# buffer is read; and the documented hist trigger recipe, keyed on
# caller.sym, that counts requests per function.

setup() {
	bats_load_library pci-mwi
	tracefs_mount
	[ -d "$MWI_EVENT" ] || skip "no $MWI_EVENT: this kernel has no tracing (CONFIG_FTRACE)"
	sim_load
	slot=$(sim_slot accepts)
	mwi_trace_start
}

teardown() {
	[ -d "$MWI_EVENT" ] || return 0
	mwi_trace_stop
	sim_unload
}

# The requester the api hook's calls show: the emulator's own function.
API_REQUESTER='sim_call_api\+0x[0-9a-f]+/0x[0-9a-f]+ \[pci_mwi_sim\]'
# The same as a hist trigger's caller.sym key shows it (no offset).
API_SYM='sim_call_api \[pci_mwi_sim\]'

# assert_events REGEX...: the recorded events are exactly one per
# argument, in order, each matching its extended regex as a whole line.
@test "set, try_set and clear through the api hook trace one event each, with sim_call_api as the requester" {
	sim_api "$slot" set
	sim_api "$slot" try_set
	sim_api "$slot" clear
	assert_events "$slot requester=$API_REQUESTER old=0 asked=1 new=1 err=0" \
		"$slot requester=$API_REQUESTER old=1 asked=1 new=1 err=0" \
		"$slot requester=$API_REQUESTER old=1 asked=0 new=0 err=0"
}

@test "a refusal traces err=0 with new not as asked; a failed access its errno; PCI Express -1 for what was not read" {
	sim_api "$(sim_slot refuses)" set
	sim_api "$(sim_slot stuck)" clear
	sim_api "$(sim_slot pcie)" set
	sim_knob "$slot" fail_code set_failed
	sim_knob "$slot" fail_reads 1
	sim_api "$slot" set
	assert_events "$(sim_slot refuses) requester=$API_REQUESTER old=0 asked=1 new=0 err=0" \
		"$(sim_slot stuck) requester=$API_REQUESTER old=1 asked=0 new=1 err=0" \
		"$(sim_slot pcie) requester=$API_REQUESTER old=-1 asked=1 new=-1 err=0" \
		"$slot requester=$API_REQUESTER old=-1 asked=1 new=-1 err=-5"
}

@test "a sysfs write traces one event with the attribute's store as the requester" {
	write_mwi "$slot" '1\n'
	run write_mwi "$(sim_slot refuses)" '1\n'
	assert_failure
	write_mwi "$slot" '0\n'
	assert_events "$slot requester=$SYSFS_REQUESTER old=0 asked=1 new=1 err=0" \
		"$(sim_slot refuses) requester=$SYSFS_REQUESTER old=0 asked=1 new=0 err=0" \
		"$slot requester=$SYSFS_REQUESTER old=1 asked=0 new=0 err=0"
}

@test "rejected input, a writer without CAP_SYS_ADMIN and a write while a driver is bound trace nothing" {
	run write_mwi "$slot" 'yes\n'
	assert_output --partial "Invalid argument"
	run write_mwi "$slot" '1\n' as_root_without_caps
	assert_output --partial "Operation not permitted"
	assert_events
	sim_bind "$slot"
	mwi_trace_start
	run write_mwi "$slot" '0\n'
	assert_output --partial "Device or resource busy"
	assert_events
}

@test "pcim_set_mwi() in a probe traces the probe function, and the unbind the pcim release function, not the devres core" {
	sim_bind "$slot"
	sim_unbind "$slot"
	assert_events "$slot requester=sim_probe\+0x[0-9a-f]+/0x[0-9a-f]+ \[pci_mwi_sim\] old=0 asked=1 new=1 err=0" \
		"$slot requester=$(pcim_release_function)\+0x[0-9a-f]+/0x[0-9a-f]+ old=1 asked=0 new=0 err=0"
}

@test "the event records the requester's address, not its name: after pci-mwi-sim is unloaded it reads as a bare address" {
	local refuses
	refuses=$(sim_slot refuses)
	sim_api "$refuses" set
	sim_unload
	[ ! -e "$SIM_DEBUGFS" ]
	assert_events "$refuses requester=0x[0-9a-f]+ old=0 asked=1 new=0 err=0"
}

@test "the hist trigger keys=dev,caller.sym,new counts 5 api and 2 sysfs refusals of the refusing function" {
	local refuses
	refuses=$(sim_slot refuses)
	echo "$MWI_HIST" >"$MWI_EVENT/trigger"
	for _ in 1 2 3 4 5; do
		sim_api "$refuses" set
	done
	for _ in 1 2; do
		run write_mwi "$refuses" '1\n'
		assert_failure
	done
	sim_api "$slot" set
	assert_equal "api refused $(mwi_hist_count "$refuses" "$API_SYM" 0)" "api refused 5"
	assert_equal "sysfs refused $(mwi_hist_count "$refuses" mwi_store 0)" "sysfs refused 2"
	assert_equal "api accepted $(mwi_hist_count "$slot" "$API_SYM" 1)" "api accepted 1"
	assert_equal "api on refuses $(mwi_hist_count "$refuses" "$API_SYM" 1)" "api on refuses 0"
}
