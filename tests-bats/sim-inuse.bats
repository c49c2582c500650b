#!/usr/bin/env bats
# mwictl on|off --rebind leaves alone a function whose disk is in use: the
# emulator's disk driver (pci-mwi-sim-disk) puts a 1 MiB RAM disk,
# simdiskN, below the function, as a controller's disk sits below it; the
# tests mount a filesystem on it or swap on it. mwictl finds the disk
# through sysfs class/block and the mount through /proc/self/mountinfo, the
# swap through /proc/swaps (mwictl(8), --rebind and --force).

setup() {
	bats_load_library pci-mwi
	sim_load devices=accepts
	slot=$(sim_slot accepts)
	sim_bind_as "$slot" pci-mwi-sim-disk
	disk=$(basename "$SYSFS_PCI/$slot"/block/simdisk*)
	mnt=$BATS_TEST_TMPDIR/mnt
	mkdir -p "$mnt"
}

teardown() {
	umount "$mnt" 2>/dev/null || true
	swapoff "/dev/$disk" 2>/dev/null || true
	sim_unload
}

driver_of() {
	basename "$(readlink "$SYSFS_PCI/$1/driver")"
}

@test "the disk driver's disk sits below the function, and MWI is off: its probe never asks" {
	[ -b "/dev/$disk" ]
	assert_equal "$(readlink -f "/sys/class/block/$disk/device")" "$(readlink -f "$SYSFS_PCI/$slot")"
	assert_equal "$(mwictl get "$slot")" 0
}

@test "mwictl on --rebind of a function whose disk is mounted exits 7, names the mount and unbinds nothing" {
	mke2fs -q "/dev/$disk"
	mount -t ext2 "/dev/$disk" "$mnt"
	echo data >"$mnt/file"
	run --separate-stderr mwictl on --rebind "$slot"
	assert_equal "$status" 7
	assert_equal "$stderr" "mwictl: $slot: $disk is mounted on $mnt: not unbinding pci-mwi-sim-disk (--force to unbind anyway)"
	assert_equal "$(driver_of "$slot")" pci-mwi-sim-disk
	assert_equal "$(mwictl get "$slot")" 0
	assert_equal "$(cat "$mnt/file")" data
}

@test "mwictl on --rebind --dry-run of a function whose disk is mounted predicts the refusal" {
	mke2fs -q "/dev/$disk"
	mount -t ext2 "/dev/$disk" "$mnt"
	run --separate-stderr mwictl on --rebind --dry-run "$slot"
	assert_equal "$status" 7
	assert_equal "$stderr" "mwictl: $slot: $disk is mounted on $mnt: not unbinding pci-mwi-sim-disk (--force to unbind anyway)"
	assert_output ""
	assert_equal "$(driver_of "$slot")" pci-mwi-sim-disk
}

@test "mwictl on --rebind of a function whose disk is an active swap area exits 7 and unbinds nothing" {
	mkswap "/dev/$disk" >/dev/null
	swapon "/dev/$disk"
	run --separate-stderr mwictl on --rebind "$slot"
	assert_equal "$status" 7
	assert_equal "$stderr" "mwictl: $slot: $disk is an active swap area: not unbinding pci-mwi-sim-disk (--force to unbind anyway)"
	assert_equal "$(driver_of "$slot")" pci-mwi-sim-disk
	grep -q "^/dev/$disk " /proc/swaps
}

# The disk driver never asks for MWI: the core turns off the MWI written
# while it was unbound before its probe (the policy, sim-policy.bats).
@test "mwictl on --rebind of a function whose disk is idle restarts the driver, which never asks for MWI" {
	run mwictl on --rebind "$slot"
	assert_success
	assert_output "$slot: MWI turned on with pci-mwi-sim-disk unbound; pci-mwi-sim-disk bound again and has MWI off"
	assert_equal "$(driver_of "$slot")" pci-mwi-sim-disk
	[ -b "/dev/$(basename "$SYSFS_PCI/$slot"/block/simdisk*)" ]
}

@test "mwictl on --rebind --force unbinds under the mounted filesystem, as documented, and binds again" {
	mke2fs -q "/dev/$disk"
	mount -t ext2 "/dev/$disk" "$mnt"
	run mwictl on --rebind --force "$slot"
	assert_success
	assert_output "$slot: MWI turned on with pci-mwi-sim-disk unbound; pci-mwi-sim-disk bound again and has MWI off"
	assert_equal "$(driver_of "$slot")" pci-mwi-sim-disk
	[ -b "/dev/$(basename "$SYSFS_PCI/$slot"/block/simdisk*)" ]
}
