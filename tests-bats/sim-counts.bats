#!/usr/bin/env bats
# Config accesses per operation, counted by the emulator. Reading the state
# costs one read; asking for the current state writes nothing to COMMAND
# ("1" first checks the cache line size, outside pci_lock, then COMMAND
# under it: two reads); what is
# refused before the device is looked at (bad input, no CAP_SYS_ADMIN, a
# bound driver, PCI Express, the "0" policy) costs nothing. The exact
# counts of the changes are pinned here and compared with the minimum in
# Documentation/emulator.md.

setup() {
	bats_load_library pci-mwi
	sim_load
}

teardown() {
	sim_unload
}

# counts_of SLOT COMMAND...: run COMMAND after resetting the counters and
# print "READS WRITES".
counts_of() {
	local slot=$1
	shift
	sim_reset_counts "$slot"
	"$@" >/dev/null 2>&1 || true
	sim_counts "$slot"
}

@test "cat mwi does exactly 1 config read and no write" {
	assert_equal "$(counts_of "$(sim_slot accepts)" read_mwi "$(sim_slot accepts)")" "1 0"
}

@test "echo 0 while off does 1 read and no write" {
	assert_equal "$(counts_of "$(sim_slot accepts)" write_mwi "$(sim_slot accepts)" '0\n')" "1 0"
}

@test "echo 1 while on does 2 reads (cache line size, COMMAND) and no write" {
	write_mwi "$(sim_slot accepts)" '1\n'
	assert_equal "$(counts_of "$(sim_slot accepts)" write_mwi "$(sim_slot accepts)" '1\n')" "2 0"
}

@test "echo 1 on a stuck device (already on) writes only its unprogrammed cache line size" {
	assert_equal "$(counts_of "$(sim_slot stuck)" write_mwi "$(sim_slot stuck)" '1\n')" "3 1"
}

@test "off to on with the cache line size to program does 4 reads and 2 writes, the minimum" {
	assert_equal "$(counts_of "$(sim_slot accepts)" write_mwi "$(sim_slot accepts)" '1\n')" "4 2"
}

@test "off to on with the cache line size already right does 3 reads and 1 write, the minimum" {
	setpci -s "$(sim_slot accepts)" CACHE_LINE_SIZE=10
	assert_equal "$(counts_of "$(sim_slot accepts)" write_mwi "$(sim_slot accepts)" '1\n')" "3 1"
}

@test "on to off does 2 reads and 1 write, the minimum" {
	write_mwi "$(sim_slot accepts)" '1\n'
	assert_equal "$(counts_of "$(sim_slot accepts)" write_mwi "$(sim_slot accepts)" '0\n')" "2 1"
}

@test "a refused echo 1 does 4 reads and 3 writes, the last putting the cache line size back" {
	assert_equal "$(counts_of "$(sim_slot refuses)" write_mwi "$(sim_slot refuses)" '1\n')" "4 3"
}

@test "rejected input does no config access at all" {
	assert_equal "$(counts_of "$(sim_slot accepts)" write_mwi "$(sim_slot accepts)" 'yes please\n')" "0 0"
}

@test "a write without CAP_SYS_ADMIN does no config access at all" {
	assert_equal "$(counts_of "$(sim_slot accepts)" write_mwi "$(sim_slot accepts)" '1\n' as_root_without_caps)" "0 0"
}

@test "a write while a driver is bound (EBUSY) does no config access at all" {
	sim_bind "$(sim_slot accepts)"
	assert_equal "$(counts_of "$(sim_slot accepts)" write_mwi "$(sim_slot accepts)" '0\n')" "0 0"
}

@test "pci_set_mwi() on a PCI Express function does no config access at all" {
	assert_equal "$(counts_of "$(sim_slot pcie)" sim_api "$(sim_slot pcie)" set)" "0 0"
}

@test "pci_set_mwi() on a function whose policy is off (echo 0) programs the cache line size and does not touch PCI_COMMAND: 2 reads, 1 write" {
	write_mwi "$(sim_slot accepts)" '0\n'
	assert_equal "$(counts_of "$(sim_slot accepts)" sim_api "$(sim_slot accepts)" set)" "2 1"
	assert_equal "$(sim_knob "$(sim_slot accepts)" api)" "set 0"
	assert_equal "$(sim_registers "$(sim_slot accepts)")" "0x0000 64"
}

@test "mwictl get does exactly 1 config read and no write" {
	assert_equal "$(counts_of "$(sim_slot accepts)" mwictl get "$(sim_slot accepts)")" "1 0"
}

@test "mwictl on -q of one function while off does what echo 1 does: 4 reads, 2 writes" {
	assert_equal "$(counts_of "$(sim_slot accepts)" mwictl on -q "$(sim_slot accepts)")" "4 2"
}

@test "mwictl on reads the state once more to report it: 5 reads, 2 writes" {
	assert_equal "$(counts_of "$(sim_slot accepts)" mwictl on "$(sim_slot accepts)")" "5 2"
}

@test "mwictl on --dry-run reads the state and writes nothing: 1 read, no write" {
	assert_equal "$(counts_of "$(sim_slot accepts)" mwictl on --dry-run "$(sim_slot accepts)")" "1 0"
}

@test "pci_mwi_enabled() does no config access on a PCI Express function and one read elsewhere" {
	assert_equal "$(counts_of "$(sim_slot pcie)" sim_api "$(sim_slot pcie)" enabled)" "0 0"
	assert_equal "$(counts_of "$(sim_slot accepts)" sim_api "$(sim_slot accepts)" enabled)" "1 0"
}
