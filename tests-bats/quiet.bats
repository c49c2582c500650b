#!/usr/bin/env bats
# MWI is an optimisation: a device, bus or platform without it is normal,
# and nothing about it may reach the console. QEMU's devices all refuse
# MWI, and on pc their drivers ask for it at probe (8139cp, sym53c8xx,
# ehci-pci); on q35 every function is PCI Express or has no driver. The
# default console level shows emerg to info; a refusal may be logged at
# debug level only.

setup() {
	bats_load_library pci-mwi
}

@test "the kernel log has no line about MWI at levels emerg to info" {
	local log lines
	log=$(kernel_log 6)
	[ -n "$log" ] || fail "the kernel log is empty: nothing was checked"
	# Case matters: the command line says mwi.machine=, the version pci-mwi@.
	lines=$(grep -E 'MWI|Mem-Wr-Inval|[Mm]emory-[Ww]rite-[Ii]nvalidate|[Ww]rite and [Ii]nvalidate' \
		<<<"$log" || true)
	assert_equal "$lines" ""
	if conventional_pci; then
		# The probes that asked for MWI and were refused did run.
		assert_equal "$(driver_of "$(slot_of_id 10ec:8139)") $(driver_of "$(slot_of_id 1000:0012)") $(driver_of "$(slot_of_id 8086:24cd)")" \
			"8139cp sym53c8xx ehci-pci"
	fi
}
