# SPDX-License-Identifier: GPL-2.0
# Host tests of mwictl: fake sysfs trees in a temp dir. Loaded by every file.

bats_require_minimum_version 1.5.0
bats_load_library bats-support
bats_load_library bats-assert

MWICTL=${MWICTL:-$BATS_TEST_DIRNAME/../mwictl}

# A fresh, empty sysfs root; mwictl reads it through MWICTL_SYSFS, its one
# test seam (mwictl(8), ENVIRONMENT).
new_tree() {
	ROOT=$BATS_TEST_TMPDIR/sys
	rm -rf "$ROOT"
	mkdir -p "$ROOT/bus/pci/devices" "$ROOT/bus/pci/drivers"
	export MWICTL_SYSFS=$ROOT
}

dev_dir() {
	printf '%s/bus/pci/devices/%s\n' "$ROOT" "$1"
}

# The function's directory laid out as the kernel lays it out:
# devices/pciDOMAIN:BUS/SLOT, and bus/pci/devices/SLOT a link to it, so that
# a driver link (../../../bus/pci/drivers/NAME) resolves as it does in sysfs.
make_dev_dir() { # SLOT
	local real="$ROOT/devices/pci${1%:*}/$1"
	mkdir -p "$real"
	ln -sfn "../../../devices/pci${1%:*}/$1" "$(dev_dir "$1")"
}

# 64 bytes of config space: vendor, device, COMMAND, class, cache line size.
config_bytes() { # VENDOR DEVICE COMMAND CLASS CLS
	local v=$1 d=$2 cmd=$3 class=$4 cls=$5
	printf "\\x${v:2:2}\\x${v:0:2}\\x${d:2:2}\\x${d:0:2}\\x${cmd:2:2}\\x${cmd:0:2}\\x00\\x00"
	printf "\\x01\\x${class:4:2}\\x${class:2:2}\\x${class:0:2}\\x$(printf %02x "$cls")\\x00\\x00\\x00"
	head -c 48 /dev/zero
}

# add_dev SLOT VENDOR:DEVICE CLASS MWI [CLS_REG [DRIVER]]
# MWI is 0, 1, or "none" for a kernel without the attribute (then bit 4 of
# COMMAND in config carries the state given by MWI_CONFIG, default 0).
add_dev() {
	local slot=$1 id=$2 class=$3 mwi=$4 cls=${5:-16} driver=${6:-} dir cmd
	dir=$(dev_dir "$slot")
	make_dev_dir "$slot"
	printf '0x%s\n' "${id%%:*}" >"$dir/vendor"
	printf '0x%s\n' "${id##*:}" >"$dir/device"
	printf '0x%s\n' "$class" >"$dir/class"
	printf '0x01\n' >"$dir/revision"
	cmd=0007
	if [ "$mwi" = none ]; then
		[ "${MWI_CONFIG:-0}" = 1 ] && cmd=0017
	else
		[ "$mwi" = 1 ] && cmd=0017
		printf '%s\n' "$mwi" >"$dir/mwi"
	fi
	config_bytes "${id%%:*}" "${id##*:}" "$cmd" "$class" "$cls" >"$dir/config"
	if [ -n "$driver" ]; then
		mkdir -p "$ROOT/bus/pci/drivers/$driver"
		ln -s "../../../bus/pci/drivers/$driver" "$dir/driver"
	fi
}

# A small machine: four functions, two domains, one bound driver each.
standard_tree() {
	new_tree
	add_dev 0000:00:00.0 8086:1237 060000 0 0
	add_dev 0000:00:02.0 10ec:8139 020000 0 16 8139cp
	add_dev 0000:00:03.0 8086:100e 020000 1 16 e1000
	add_dev 0000:01:03.0 8086:100e 020000 0 0 e1000
	add_dev 10000:00:01.0 1b36:0001 060400 1 32
}

mwictl() {
	"$MWICTL" "$@"
}

# The slots lspci itself selects in the fake tree with the same filter.
lspci_slots() {
	lspci -A linux-sysfs -O "sysfs.path=$ROOT/bus/pci" -D -n "$@" 2>/dev/null | awk '{ print $1 }'
}

# The slots mwictl selects (first column of -n output, header skipped).
mwictl_slots() {
	mwictl list -n "$@" | awk 'NR > 1 { print $1 }'
}

# A tree with every class and subclass of pci.ids (plus unknown ones) and
# every 40th device of it, devices unknown to a known vendor, and unknown
# vendors: each function's names can be compared with lspci's.
pci_ids_tree() {
	local ids=/usr/share/misc/pci.ids
	new_tree
	awk -v root="$ROOT/bus/pci/devices" '
	function add(v, d, c,    dir) {
		dir = sprintf("%s/0000:%02x:%02x.%x", root, int(n / 256), int(n / 8) % 32, n % 8)
		n++
		system("mkdir -p " dir)
		printf "0x%s\n", v > (dir "/vendor"); close(dir "/vendor")
		printf "0x%s\n", d > (dir "/device"); close(dir "/device")
		printf "0x%s\n", c > (dir "/class"); close(dir "/class")
		printf "0\n" > (dir "/mwi"); close(dir "/mwi")
	}
	/^#/ || /^$/ { next }
	/^C / { cls = $2; classes[++nc] = cls "7700"; section = "C"; next }
	/^\t\t/ { next }
	/^\t/ && section == "C" { classes[++nc] = cls substr($1, 1, 2) "01"; next }
	/^\t/ { if (++k % 40 == 0) { devs[++nd] = vendor " " substr($1, 1, 4) } next }
	{ section = "V"; vendor = $1; if (++kv % 100 == 0) devs[++nd] = vendor " fffe" }
	END {
		devs[++nd] = "0002 1234"; devs[++nd] = "fff0 0001"
		classes[++nc] = "fe0000"; classes[++nc] = "ee1200"
		for (i = 1; i <= nd || i <= nc; i++) {
			split(devs[(i - 1) % nd + 1], id, " ")
			add(id[1], id[2], classes[(i - 1) % nc + 1])
		}
	}' "$ids"
	local dir zeros
	zeros=$(printf '\\0%.0s' {1..64})
	for dir in "$ROOT"/bus/pci/devices/*; do
		printf "$zeros" >"$dir/config"
	done
}

# "SLOT CLASS: DEVICE" for every function, as lspci prints it without -v;
# arguments (-n, -nn, -i FILE, -O PARAM=VALUE) go to lspci as they are.
lspci_names() {
	lspci -A linux-sysfs -O "sysfs.path=$ROOT/bus/pci" -D "$@" 2>/dev/null | sed 's/ (rev [0-9a-f]*)$//'
}

# The same from mwictl list's CLASS and DEVICE columns, cut at the offsets
# of the header, with the same arguments.
mwictl_names() {
	mwictl list "$@" | awk -f "$BATS_TEST_DIRNAME/list-names.awk"
}

# Becoming nobody needs root: a package build as a user skips those tests.
needs_root() {
	[ "$(id -u)" = 0 ] || skip "becoming the user nobody needs root"
}

# Run a command as the unprivileged user nobody, with the directories of
# the fake tree (and those above it) open to it; files keep their modes.
as_nobody() {
	local dir=$ROOT
	find "$ROOT" -type d -exec chmod a+rx {} +
	while [ "$dir" != / ]; do
		chmod a+x "$dir"
		dir=$(dirname "$dir")
	done
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# An interactive bash in a detached tmux session on a private socket, with
# bash-completion, mwictl's completion and mwictl (on PATH) reading $ROOT.
tmux_shell() {
	TMUX_SOCK=$BATS_TEST_TMPDIR/tmux.sock
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	ln -sf "$MWICTL" "$BATS_TEST_TMPDIR/bin/mwictl"
	cat >"$BATS_TEST_TMPDIR/bashrc" <<-RC
	PS1='$ '
	PATH=$BATS_TEST_TMPDIR/bin:\$PATH
	export MWICTL_SYSFS=$ROOT
	. /usr/share/bash-completion/bash_completion
	. $BATS_TEST_DIRNAME/../mwictl.bash-completion
	RC
	tmux -S "$TMUX_SOCK" -f /dev/null new-session -d -x 200 -y 20 \
		"env -i TERM=screen HOME=$BATS_TEST_TMPDIR bash --noprofile --rcfile $BATS_TEST_TMPDIR/bashrc -i"
	tmux_wait_for '$' || fail "no prompt in tmux: $(tmux_line)"
}

tmux_stop() {
	tmux -S "$TMUX_SOCK" kill-server 2>/dev/null || true
}

# The last non-empty line of the screen (tmux drops trailing blanks).
tmux_line() {
	tmux -S "$TMUX_SOCK" capture-pane -p | sed '/^$/d' | tail -1
}

# Wait (up to 20 s, polling) until the last line is $1; 1 if it never is.
tmux_wait_for() {
	local i
	for ((i = 0; i < 200; i++)); do
		[ "$(tmux_line)" = "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# Type $1, press Tab, type "#", and expect the line to read $2 and "#":
# the "#" shows whether completion ended the word with a space.
assert_completes() {
	tmux -S "$TMUX_SOCK" send-keys -l "$1"
	tmux -S "$TMUX_SOCK" send-keys Tab
	tmux -S "$TMUX_SOCK" send-keys -l "#"
	tmux_wait_for "\$ $2#" && return 0
	fail "after '$1', Tab and '#' the line is '$(tmux_line)', not '\$ $2#'"
}

# closed_pipe default|ignore COMMAND...: run COMMAND with standard output a
# pipe whose reader has gone, SIGPIPE at its default or ignored; print its
# exit status as a shell gives it (128 + 13 when SIGPIPE ended it).
closed_pipe() {
	python3 -c '
import os, signal, subprocess, sys
r, w = os.pipe()
os.close(r)
ignore = lambda: signal.signal(signal.SIGPIPE, signal.SIG_IGN)
p = subprocess.run(sys.argv[2:], stdout=w,
                   preexec_fn=ignore if sys.argv[1] == "ignore" else None)
print(128 - p.returncode if p.returncode < 0 else p.returncode)
' "$@"
}
