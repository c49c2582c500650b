#!/usr/bin/env bats
# on and off say what they did, one line per function; -q and --dry-run;
# get -d.

setup() {
	load helpers
	standard_tree
}

@test "on prints one line per function: turned on, or already on" {
	run --separate-stderr mwictl on -d 8086:100e
	assert_success
	assert_equal "$output" "0000:00:03.0: MWI already on
0000:01:03.0: MWI turned on"
	assert_equal "$stderr" ""
}

@test "off prints turned off, on stdout, for each function it changed" {
	run mwictl off 00:03.0 10000:00:01.0
	assert_success
	assert_equal "$output" "0000:00:03.0: MWI turned off
10000:00:01.0: MWI turned off"
	assert_equal "$(cat "$(dev_dir 10000:00:01.0)/mwi")" 0
}

@test "a slot selecting several functions (on 3) reports each function it changed" {
	run mwictl on 3
	assert_success
	assert_equal "$output" "0000:00:03.0: MWI already on
0000:01:03.0: MWI turned on"
}

@test "-q prints nothing on success and still writes" {
	run --separate-stderr mwictl on -q 00:02.0
	assert_success
	assert_equal "$output" ""
	assert_equal "$(cat "$(dev_dir 0000:00:02.0)/mwi")" 1
}

@test "-q still prints the errors on stderr with the exit code" {
	run --separate-stderr mwictl --quiet on 00:1f.0 00:02.0
	assert_equal "$status" 2
	assert_equal "$output" ""
	assert_equal "$stderr" "mwictl: '00:1f.0': no such device"
}

@test "--dry-run says what would change and writes nothing" {
	local before
	before=$(cat "$ROOT"/bus/pci/devices/*/mwi)
	run mwictl on --dry-run 00:00.0 10000:00:01.0
	assert_success
	assert_equal "$output" "0000:00:00.0: MWI would be turned on
10000:00:01.0: MWI already on"
	assert_equal "$(cat "$ROOT"/bus/pci/devices/*/mwi)" "$before"
}

@test "--dry-run on functions with a bound driver predicts the kernel's EBUSY: exit 7, the driver named" {
	local before
	before=$(cat "$ROOT"/bus/pci/devices/*/mwi)
	run --separate-stderr mwictl on --dry-run 3
	assert_equal "$status" 7
	assert_equal "$output" ""
	assert_equal "$stderr" "mwictl: 0000:00:03.0: a driver is bound (e1000): MWI unchanged (unbind it first, or --rebind)
mwictl: 0000:01:03.0: a driver is bound (e1000): MWI unchanged (unbind it first, or --rebind)"
	assert_equal "$(cat "$ROOT"/bus/pci/devices/*/mwi)" "$before"
}

@test "--dry-run as a user who may not write exits 4, permission denied, as the real run does" {
	needs_root
	run --separate-stderr as_nobody "$MWICTL" on --dry-run 00:00.0
	assert_equal "$status" 4
	assert_equal "$output" ""
	assert_equal "$stderr" "mwictl: 0000:00:00.0: permission denied (needs root with CAP_SYS_ADMIN)"
	run --separate-stderr as_nobody "$MWICTL" on 00:00.0
	assert_equal "$status" 4
	assert_equal "$(cat "$(dev_dir 0000:00:00.0)/mwi")" 0
}

@test "--dry-run checks permission before the bound driver, as the kernel does" {
	needs_root
	run --separate-stderr as_nobody "$MWICTL" off --dry-run 00:02.0
	assert_equal "$status" 4
	assert_equal "$stderr" "mwictl: 0000:00:02.0: permission denied (needs root with CAP_SYS_ADMIN)"
}

@test "--dry-run on a function where MWI cannot exist exits 3 as the write would" {
	add_dev 0000:02:00.0 8086:10d3 020000 none
	echo "2.5 GT/s PCIe" >"$(dev_dir 0000:02:00.0)/current_link_speed"
	run --separate-stderr mwictl on --dry-run 02:00.0
	assert_equal "$status" 3
	assert_equal "$stderr" "mwictl: 0000:02:00.0: device refused MWI (PCI Express function: the MWI bit is hardwired to 0)"
	run mwictl off --dry-run 02:00.0
	assert_success
	assert_output "0000:02:00.0: MWI already off (PCI Express function)"
}

@test "--dry-run is refused for other commands" {
	run --separate-stderr mwictl list --dry-run
	assert_equal "$status" 1
	assert_equal "${stderr_lines[0]}" "mwictl: list: --dry-run is for on and off"
	run --separate-stderr mwictl rule off 3 --dry-run
	assert_equal "$status" 1
	assert_equal "${stderr_lines[0]}" "mwictl: rule: --dry-run is for on and off"
}

@test "get -d works when exactly one function matches" {
	run mwictl get -d 10ec:8139
	assert_success
	assert_output 0
	run mwictl show -d 10ec:
	assert_line "slot:            0000:00:02.0"
}

@test "get -d exits 1 when several functions match and 2 when none does" {
	run --separate-stderr mwictl get -d 8086:100e
	assert_equal "$status" 1
	assert_equal "$stderr" "mwictl: -d '8086:100e': matches 2 devices; give one slot"
	run --separate-stderr mwictl get -d 1234:5678
	assert_equal "$status" 2
	assert_equal "$stderr" "mwictl: -d '1234:5678': no such device"
}

@test "get of an attribute it may not read exits 4, permission denied" {
	needs_root
	chmod 0200 "$(dev_dir 0000:00:02.0)/mwi"
	run --separate-stderr as_nobody "$MWICTL" get 00:02.0
	assert_equal "$status" 4
	assert_equal "$stderr" "mwictl: 0000:00:02.0: cannot read MWI state: permission denied"
}

@test "on of an attribute it may not write exits 4 and changes nothing" {
	needs_root
	run --separate-stderr as_nobody "$MWICTL" on 00:02.0
	assert_equal "$status" 4
	assert_equal "$stderr" "mwictl: 0000:00:02.0: permission denied (needs root with CAP_SYS_ADMIN)"
	assert_equal "$(cat "$(dev_dir 0000:00:02.0)/mwi")" 0
}

# The fake tree's drivers get bind and unbind files that record what is written.
rebind_files() {
	: >"$ROOT/bus/pci/drivers/$1/unbind"
	: >"$ROOT/bus/pci/drivers/$1/bind"
}

@test "--rebind unbinds the driver, writes, binds it again, and says what the driver has" {
	rebind_files e1000
	run --separate-stderr mwictl off --rebind 00:03.0
	assert_success
	assert_equal "$output" "0000:00:03.0: MWI turned off with e1000 unbound; e1000 bound again and has MWI off"
	assert_equal "$(cat "$ROOT/bus/pci/drivers/e1000/unbind")" 0000:00:03.0
	assert_equal "$(cat "$(dev_dir 0000:00:03.0)/mwi")" 0
	assert_equal "$(cat "$ROOT/bus/pci/drivers/e1000/bind")" 0000:00:03.0
}

@test "--rebind on a function without a driver is a plain write" {
	rebind_files e1000
	run mwictl on --rebind 00:00.0
	assert_success
	assert_output "0000:00:00.0: MWI turned on"
	assert_equal "$(cat "$ROOT/bus/pci/drivers/e1000/unbind")" ""
}

@test "--rebind --dry-run says what it would do and writes nothing, not even unbind" {
	rebind_files e1000
	run mwictl off --rebind --dry-run 00:03.0
	assert_success
	assert_output "0000:00:03.0: e1000 would be unbound, MWI turned off and e1000 bound again"
	assert_equal "$(cat "$ROOT/bus/pci/drivers/e1000/unbind")" ""
	assert_equal "$(cat "$(dev_dir 0000:00:03.0)/mwi")" 1
}

@test "--rebind by a user who may not write exits 4 before unbinding anything" {
	needs_root
	rebind_files e1000
	run --separate-stderr as_nobody "$MWICTL" off --rebind 00:03.0
	assert_equal "$status" 4
	assert_equal "$stderr" "mwictl: 0000:00:03.0: permission denied (needs root with CAP_SYS_ADMIN)"
	assert_equal "$(cat "$ROOT/bus/pci/drivers/e1000/unbind")" ""
}

@test "--rebind whose bind fails says the function has lost its driver and exits 6" {
	: >"$ROOT/bus/pci/drivers/e1000/unbind"
	run --separate-stderr mwictl off --rebind 00:03.0
	assert_equal "$status" 6
	assert_equal "$stderr" "mwictl: 0000:00:03.0: e1000 did not bind again: No such file or directory"
}

@test "--rebind is refused for other commands" {
	run --separate-stderr mwictl get 00:03.0 --rebind
	assert_equal "$status" 1
	assert_equal "${stderr_lines[0]}" "mwictl: get: --rebind is for on and off"
}

# add_disk SLOT NAME MAJ:MIN: a block device NAME below the function, as
# sysfs shows one (class/block/NAME resolving into the function's directory).
add_disk() {
	local dir
	dir=$(realpath "$(dev_dir "$1")")/host0/target0:0:0/block/$2
	mkdir -p "$dir/holders" "$ROOT/class/block"
	echo "$3" >"$dir/dev"
	ln -s "$dir" "$ROOT/class/block/$2"
}

# The proc files beside the fake sysfs ($ROOT/../proc): mountinfo lines
# "MAJ:MIN MOUNTPOINT" and swap areas given as /dev paths.
fake_proc() { # MOUNTS SWAPS
	local proc=$BATS_TEST_TMPDIR/proc
	mkdir -p "$proc/self"
	: >"$proc/self/mountinfo"
	while read -r dev mnt; do
		[ -n "$dev" ] && echo "30 1 $dev / $mnt rw,relatime - ext4 /dev/x rw" >>"$proc/self/mountinfo"
	done <<<"$1"
	echo "Filename				Type		Size		Used		Priority" >"$proc/swaps"
	for dev in $2; do
		printf '%s\t\t\t\tpartition\t1048572\t\t0\t\t-2\n' "$dev" >>"$proc/swaps"
	done
}

@test "--rebind refuses a function whose disk holds a mounted filesystem: exit 7, nothing unbound" {
	rebind_files e1000
	add_disk 0000:00:03.0 sdb1 8:17
	fake_proc "8:17 /srv/data"
	run --separate-stderr mwictl off --rebind 00:03.0
	assert_equal "$status" 7
	assert_equal "$stderr" "mwictl: 0000:00:03.0: sdb1 is mounted on /srv/data: not unbinding e1000 (--force to unbind anyway)"
	assert_equal "$(cat "$ROOT/bus/pci/drivers/e1000/unbind")" ""
	assert_equal "$(cat "$(dev_dir 0000:00:03.0)/mwi")" 1
}

@test "--rebind refuses the function that holds the root filesystem, and --dry-run says so too" {
	rebind_files e1000
	add_disk 0000:00:03.0 nvme0n1p2 259:2
	fake_proc "0:22 /sys
259:2 /"
	run --separate-stderr mwictl off --rebind --dry-run 00:03.0
	assert_equal "$status" 7
	assert_equal "$stderr" "mwictl: 0000:00:03.0: nvme0n1p2 holds the root filesystem: not unbinding e1000 (--force to unbind anyway)"
	assert_equal "$output" ""
}

@test "--rebind refuses a function whose disk holds a btrfs root: matched by the mount's source, not its device number (0:27)" {
	rebind_files e1000
	add_disk 0000:00:03.0 sdb2 8:18
	fake_proc ""
	echo "30 1 0:27 / / rw,relatime - btrfs /dev/sdb2 rw" >>"$BATS_TEST_TMPDIR/proc/self/mountinfo"
	run --separate-stderr mwictl off --rebind 00:03.0
	assert_equal "$status" 7
	assert_equal "$stderr" "mwictl: 0000:00:03.0: sdb2 holds the root filesystem: not unbinding e1000 (--force to unbind anyway)"
	assert_equal "$(cat "$ROOT/bus/pci/drivers/e1000/unbind")" ""
}

@test "--rebind refuses a function whose disk is a device of a mounted btrfs filesystem that mountinfo names by another disk" {
	rebind_files e1000
	add_disk 0000:00:03.0 sdc 8:32
	fake_proc ""
	echo "30 1 0:28 / /srv rw,relatime - btrfs /dev/sdb rw" >>"$BATS_TEST_TMPDIR/proc/self/mountinfo"
	mkdir -p "$ROOT/fs/btrfs/4f0e1a2b-0000-4000-8000-000000000001/devices/sdc"
	run --separate-stderr mwictl off --rebind 00:03.0
	assert_equal "$status" 7
	assert_equal "$stderr" "mwictl: 0000:00:03.0: sdc is a device of a mounted btrfs filesystem: not unbinding e1000 (--force to unbind anyway)"
	assert_equal "$(cat "$ROOT/bus/pci/drivers/e1000/unbind")" ""
}

@test "--rebind refuses with exit 6 when it cannot list the block devices" {
	rebind_files e1000
	fake_proc ""
	mkdir -p "$ROOT/class"
	echo "not a directory" >"$ROOT/class/block"
	run --separate-stderr mwictl off --rebind 00:03.0
	assert_equal "$status" 6
	assert_equal "$stderr" "mwictl: 0000:00:03.0: cannot tell which disks it has: $ROOT/class/block: Not a directory: not unbinding e1000 (--force to unbind anyway)"
	assert_equal "$(cat "$ROOT/bus/pci/drivers/e1000/unbind")" ""
}

@test "--rebind refuses a function with an active swap partition" {
	rebind_files e1000
	add_disk 0000:00:03.0 sdb2 8:18
	fake_proc "" /dev/sdb2
	run --separate-stderr mwictl off --rebind 00:03.0
	assert_equal "$status" 7
	assert_equal "$stderr" "mwictl: 0000:00:03.0: sdb2 is an active swap area: not unbinding e1000 (--force to unbind anyway)"
	assert_equal "$(cat "$ROOT/bus/pci/drivers/e1000/unbind")" ""
}

@test "--rebind refuses a function whose disk has a device stacked on it (LVM, dm-crypt)" {
	rebind_files e1000
	add_disk 0000:00:03.0 sdb 8:16
	mkdir "$ROOT/class/block/sdb/holders/dm-0"
	fake_proc ""
	run --separate-stderr mwictl off --rebind 00:03.0
	assert_equal "$status" 7
	assert_equal "$stderr" "mwictl: 0000:00:03.0: sdb is in use by dm-0: not unbinding e1000 (--force to unbind anyway)"
}

@test "--rebind --force unbinds a function in use anyway" {
	rebind_files e1000
	add_disk 0000:00:03.0 sdb1 8:17
	fake_proc "8:17 /srv/data"
	run --separate-stderr mwictl off --rebind --force 00:03.0
	assert_success
	assert_equal "$(cat "$ROOT/bus/pci/drivers/e1000/unbind")" 0000:00:03.0
	assert_equal "$(cat "$ROOT/bus/pci/drivers/e1000/bind")" 0000:00:03.0
}

@test "--rebind goes ahead when the function's disks are neither mounted nor swap" {
	rebind_files e1000
	add_disk 0000:00:03.0 sdb1 8:17
	add_disk 0000:00:02.0 sda1 8:1
	fake_proc "8:1 /
8:170 /srv" /dev/sda2
	run --separate-stderr mwictl off --rebind 00:03.0
	assert_success
	assert_equal "$(cat "$ROOT/bus/pci/drivers/e1000/unbind")" 0000:00:03.0
}

@test "--rebind refuses with exit 6 when it cannot tell what is mounted" {
	rebind_files e1000
	add_disk 0000:00:03.0 sdb1 8:17
	run --separate-stderr mwictl off --rebind 00:03.0
	assert_equal "$status" 6
	assert_equal "$stderr" "mwictl: 0000:00:03.0: cannot tell what is mounted: $BATS_TEST_TMPDIR/proc/self/mountinfo: No such file or directory: not unbinding e1000 (--force to unbind anyway)"
	assert_equal "$(cat "$ROOT/bus/pci/drivers/e1000/unbind")" ""
}

@test "--rebind of several bound functions without a terminal and without --yes changes nothing: exit 1" {
	rebind_files e1000
	run --separate-stderr mwictl off --rebind 3 </dev/null
	assert_equal "$status" 1
	assert_equal "$stderr" "mwictl: --rebind would restart 2 functions: give --yes to confirm (standard input is not a terminal); nothing changed"
	assert_equal "$(cat "$ROOT/bus/pci/drivers/e1000/unbind")" ""
	assert_equal "$(cat "$(dev_dir 0000:00:03.0)/mwi")" 1
}

@test "--rebind --yes restarts several functions without asking" {
	rebind_files e1000
	echo 1 >"$(dev_dir 0000:01:03.0)/mwi"
	run --separate-stderr mwictl off --rebind --yes 3 </dev/null
	assert_success
	assert_equal "$output" "0000:00:03.0: MWI turned off with e1000 unbound; e1000 bound again and has MWI off
0000:01:03.0: MWI turned off with e1000 unbound; e1000 bound again and has MWI off"
}

@test "--rebind of several functions asks on a terminal, and a no changes nothing" {
	rebind_files e1000
	run script -qec "'$MWICTL' off --rebind 3" /dev/null <<<"n"
	assert_equal "$status" 1
	assert_output --partial "mwictl: --rebind restarts 2 functions: 0000:00:03.0 (e1000) 0000:01:03.0 (e1000). Go on? [y/N]"
	assert_output --partial "mwictl: nothing changed"
	assert_equal "$(cat "$ROOT/bus/pci/drivers/e1000/unbind")" ""
	assert_equal "$(cat "$(dev_dir 0000:00:03.0)/mwi")" 1
	run script -qec "'$MWICTL' off --rebind 3" /dev/null <<<"y"
	assert_success
	assert_output --partial "0000:00:03.0: MWI turned off with e1000 unbound"
	assert_output --partial "0000:01:03.0: MWI turned off with e1000 unbound"
}

# Send signal $1 to mwictl off --rebind while it is between unbind and bind
# (blocked opening the unbind FIFO); $2 is the status it must die with after
# the bind has run.
signal_between_unbind_and_bind() {
	local sig=$1 want=$2 pid i rc=0
	rm -f "$ROOT/bus/pci/drivers/e1000/unbind"
	mkfifo "$ROOT/bus/pci/drivers/e1000/unbind"
	: >"$ROOT/bus/pci/drivers/e1000/bind"
	"$MWICTL" off --rebind 00:03.0 >/dev/null 2>&1 &
	pid=$!
	# wait until it is blocked opening the unbind FIFO (openat is syscall 257 on x86-64)
	for ((i = 0; i < 100; i++)); do
		[ "$(cut -d' ' -f1 "/proc/$pid/syscall" 2>/dev/null)" = 257 ] && break
		sleep 0.1
	done
	kill "-$sig" "$pid"
	sleep 0.2
	timeout 10 cat "$ROOT/bus/pci/drivers/e1000/unbind" >/dev/null || true
	wait "$pid" || rc=$?
	assert_equal "$rc" "$want"
	assert_equal "$(cat "$ROOT/bus/pci/drivers/e1000/bind")" 0000:00:03.0
	assert_equal "$(cat "$(dev_dir 0000:00:03.0)/mwi")" 0
}

@test "SIGTERM between unbind and bind is held until the driver is bound again" {
	signal_between_unbind_and_bind TERM 143
}

@test "SIGUSR1 between unbind and bind is held too: every signal but SIGKILL and SIGSTOP is, not only INT, HUP and TERM" {
	# (not SIGQUIT or SIGINT: a background job of a non-interactive shell ignores them)
	signal_between_unbind_and_bind USR1 138
}

@test "--force and --yes are refused without --rebind" {
	run --separate-stderr mwictl off --force 00:03.0
	assert_equal "$status" 1
	assert_equal "${stderr_lines[0]}" "mwictl: off: --force is for --rebind"
	run --separate-stderr mwictl on --yes 00:03.0
	assert_equal "$status" 1
	assert_equal "${stderr_lines[0]}" "mwictl: on: --yes is for --rebind"
}

# The kernel's lockdown file in the fake sysfs, with the active mode in brackets.
lockdown() { # MODE
	mkdir -p "$ROOT/kernel/security"
	sed "s/\<$1\>/[$1]/" <<<"none integrity confidentiality" >"$ROOT/kernel/security/lockdown"
}

# The process's uid_map in the fake proc beside the sysfs tree.
uid_map() { # LINE
	mkdir -p "$BATS_TEST_TMPDIR/proc/self"
	printf '%s\n' "$1" >"$BATS_TEST_TMPDIR/proc/self/uid_map"
}

@test "--dry-run in a user namespace (a container's root) predicts the kernel's EPERM: exit 4, said why" {
	uid_map "         0     100000      65536"
	run --separate-stderr mwictl on --dry-run 00:00.0
	assert_equal "$status" 4
	assert_equal "$output" ""
	assert_equal "$stderr" "mwictl: 0000:00:00.0: permission denied (needs CAP_SYS_ADMIN in the initial user namespace, not a container's)"
}

@test "--dry-run in the initial user namespace (uid_map 0 0 4294967295) predicts success" {
	uid_map "         0          0 4294967295"
	run --separate-stderr mwictl on --dry-run 00:00.0
	assert_success
	assert_output "0000:00:00.0: MWI would be turned on"
}

@test "--dry-run under lockdown integrity or confidentiality predicts EPERM; none does not" {
	local mode
	for mode in integrity confidentiality; do
		lockdown "$mode"
		run --separate-stderr mwictl on --dry-run 00:00.0 00:03.0
		assert_equal "$status" 4
		assert_equal "$stderr" "mwictl: 0000:00:00.0 and 1 more function: permission denied (the kernel is locked down: $mode)"
	done
	lockdown none
	run --separate-stderr mwictl on --dry-run 00:00.0
	assert_success
}

@test "--rebind under lockdown unbinds nothing: the write would be refused" {
	rebind_files e1000
	lockdown integrity
	run --separate-stderr mwictl off --rebind 00:03.0
	assert_equal "$status" 4
	assert_equal "$stderr" "mwictl: 0000:00:03.0: permission denied (the kernel is locked down: integrity)"
	assert_equal "$(cat "$ROOT/bus/pci/drivers/e1000/unbind")" ""
}

@test "--rebind counts only the functions it would restart: a bound PCI Express function is not one" {
	rebind_files e1000
	add_dev 0000:02:00.0 8086:100e 020000 none 16 e1000
	echo "2.5 GT/s PCIe" >"$(dev_dir 0000:02:00.0)/current_link_speed"
	run --separate-stderr mwictl off --rebind 00:03.0 02:00.0 </dev/null
	assert_success
	assert_equal "$output" "0000:00:03.0: MWI turned off with e1000 unbound; e1000 bound again and has MWI off
0000:02:00.0: MWI already off (PCI Express function)"
}
