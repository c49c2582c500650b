#!/usr/bin/env bats
# Nothing is printed under pci_lock: a console write can take milliseconds,
# and pci_lock is a raw spinlock taken with interrupts off around every
# config access of the machine. The one message of the locked PCI_COMMAND
# update, "cannot restore PCI_COMMAND", is printed after the unlock.
#
# Seen through the printk:console trace event, which records the
# preemption depth of the context that printed: on this kernel
# (DEBUG_ATOMIC_SLEEP selects PREEMPT_COUNT) a held spinlock adds one to
# it. The warning must have the depth of a message written to /dev/kmsg
# by the shell, not one more: on a kernel that counts preemption but is
# not preemptible (6.12's stress kernel) the tracepoint's own
# preempt_disable() shows, so that reads 1; on a preemptible one (7.2's,
# PREEMPT_LAZY) tracing subtracts it, so that reads "." (none). On the
# other patched guests' kernels preemption is not counted and both would
# read the same whatever the lock, so this file runs on the stress guest
# only.

setup() {
	bats_load_library pci-mwi
	tracefs_mount
	[ -d "$PRINTK_EVENT" ] || fail "no $PRINTK_EVENT: this kernel has no tracing"
	sim_load
	slot=$(sim_slot accepts)
}

teardown() {
	console_trace_stop
	sim_unload
}

REFERENCE="pci-mwi test: a message from process context"

@test "the warning that PCI_COMMAND cannot be put back is printed with pci_lock released" {
	# COMMAND: the read and the write pass, the read-back fails, and
	# so does the write that would put the old value back. The function
	# stays active: a runtime suspend or resume would read COMMAND too.
	echo on >"$SYSFS_PCI/$slot/power/control"
	sim_knob "$slot" fail_code set_failed
	sim_knob "$slot" fail_where 4
	sim_knob "$slot" fail_after 2
	sim_knob "$slot" fail_reads 1
	sim_knob "$slot" fail_writes 1
	console_trace_start
	echo "$REFERENCE" >/dev/kmsg
	run write_mwi "$slot" '1\n'
	console_trace_stop
	assert_failure
	assert_output --partial "Input/output error"
	assert_equal "$(sim_knob "$slot" fail_reads) $(sim_knob "$slot" fail_writes)" "0 0"
	run console_preempt_depths "$REFERENCE"
	if uname -v | grep -qw 'PREEMPT\(_LAZY\|_RT\|_DYNAMIC\)\{0,1\}'; then
		assert_output .
	else
		assert_output 1
	fi
	reference=$output
	run console_preempt_depths "cannot restore PCI_COMMAND"
	assert_output "$reference"
}
