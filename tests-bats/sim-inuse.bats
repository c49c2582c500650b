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
	local dev
	umount "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null || true
	for dev in $(awk '$1 ~ /simdisk/ { print $1 }' /proc/swaps); do
		swapoff "$dev" || true
	done
	sim_unload
}

# Whether the disk the test started with is still the one below the
# function, with what was written on it: a rebind would have deleted it and
# added a new, zeroed one (named simdisk1 while the old one is in use). $1
# is the signature's offset and $2 its bytes in hex (ext2's magic, swap's).
same_disk() {
	echo 3 >/proc/sys/vm/drop_caches
	[ -b "/dev/$disk" ] || fail "/dev/$disk is gone"
	assert_equal "$(basename "$SYSFS_PCI/$slot"/block/simdisk*)" "$disk"
	assert_equal "$(dd if="/dev/$disk" bs=1 skip="$1" count=$((${#2} / 2)) status=none |
		od -An -tx1 | tr -d ' \n')" "$2"
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
	same_disk 1080 53ef
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
	same_disk 1080 53ef
}

@test "mwictl on --rebind of a function whose disk is an active swap area exits 7 and unbinds nothing" {
	mkswap "/dev/$disk" >/dev/null
	swapon "/dev/$disk"
	run --separate-stderr mwictl on --rebind "$slot"
	assert_equal "$status" 7
	assert_equal "$stderr" "mwictl: $slot: $disk is an active swap area: not unbinding pci-mwi-sim-disk (--force to unbind anyway)"
	assert_equal "$(driver_of "$slot")" pci-mwi-sim-disk
	grep -q "^/dev/$disk " /proc/swaps
	same_disk 4086 53574150535041434532
}

# The disk driver never asks for MWI: the core turns off the MWI written
# while it was unbound before its probe (the policy, sim-policy.bats).
@test "mwictl on --rebind of a function whose disk is idle restarts the driver, which never asks for MWI" {
	printf 'pci-mwi' | dd of="/dev/$disk" bs=7 count=1 conv=fsync status=none
	same_disk 0 7063692d6d7769
	run mwictl on --rebind "$slot"
	assert_success
	assert_output "$slot: MWI turned on with pci-mwi-sim-disk unbound; pci-mwi-sim-disk bound again and has MWI off"
	assert_equal "$(driver_of "$slot")" pci-mwi-sim-disk
	# a new probe, a new disk: zeroed
	disk=$(basename "$SYSFS_PCI/$slot"/block/simdisk*)
	same_disk 0 00000000000000
}

@test "mwictl on --rebind --force unbinds under the mounted filesystem, as documented, and binds again" {
	mke2fs -q "/dev/$disk"
	mount -t ext2 "/dev/$disk" "$mnt"
	run mwictl on --rebind --force "$slot"
	assert_success
	assert_output "$slot: MWI turned on with pci-mwi-sim-disk unbound; pci-mwi-sim-disk bound again and has MWI off"
	assert_equal "$(driver_of "$slot")" pci-mwi-sim-disk
	# a new probe, a new disk, under another name while the old one is mounted
	run basename "$SYSFS_PCI/$slot"/block/simdisk*
	refute_output "$disk"
	[ -b "/dev/$output" ]
}
