# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Part of the bats library "pci-mwi" (load.bash sources it).

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
