# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Shared helpers for the harness scripts. Sourced, never run.

# Progress on stderr, with the time of day: a cold run's log shows where
# its time went.
say() {
	printf '==> %(%T)T %s\n' -1 "$*" >&2
}

die() {
	printf 'pci-mwi: %s\n' "$*" >&2
	exit 1
}

# The kernel trees: one per directory of kernel-patches/, newest first
# (the Makefile's KVERS is the same list). A new tree is a new patch
# directory; its source is Debian's linux-source-<tree>.
trees() {
	local d
	for d in "$(dirname "${BASH_SOURCE[0]}")"/../kernel-patches/*/; do
		d=${d%/}
		printf '%s\n' "${d##*/}"
	done | sort -rV
}

# The tree a script works on: KVER, which the Makefile exports; unset, the
# primary (the first of trees()), for the scripts run by hand.
kver() {
	local all t
	all=$(trees)
	t=${KVER:-$(printf '%s\n' "$all" | head -1)}
	printf '%s\n' "$all" | grep -qxF -- "$t" ||
		die "KVER='$t': set KVER to one of $(printf '%s\n' "$all" | tr '\n' ' ')"
	printf '%s\n' "$t"
}

# A tree's series, kernel-patches/<tree>/, is git format-patch output:
# either one posting (NNNN-*.patch, 0000 its cover letter) or one
# subdirectory per posting, each such output, applied in the order of
# their names (the order the trees merge them).

# The patches of series directory $1, one a line, in the order they apply;
# cover letters left out.
series_patches() {
	local p
	for p in "$1"/[0-9][0-9][0-9][0-9]-*.patch "$1"/*/[0-9][0-9][0-9][0-9]-*.patch; do
		[ -e "$p" ] || continue
		case "${p##*/}" in 0000-*) continue ;; esac
		printf '%s\n' "$p"
	done
}

# The cover letters of series directory $1, one a line, in posting order.
series_covers() {
	local p
	for p in "$1"/0000-cover-letter.patch "$1"/*/0000-cover-letter.patch; do
		[ -e "$p" ] && printf '%s\n' "$p"
	done
	return 0
}

# A patch's name within its series: "0003-x.patch" or "1-net-next/0003-x.patch".
series_name() {
	case "$(basename "$(dirname "$1")")" in
	[0-9]-* | [0-9][0-9]-*) printf '%s/%s\n' "$(basename "$(dirname "$1")")" "$(basename "$1")" ;;
	*) basename "$1" ;;
	esac
}

# The guests: one manifest each in qemu/guests/, by name.
guest_names() {
	local f
	for f in "$(dirname "${BASH_SOURCE[0]}")"/guests/*; do
		case "${f##*/}" in
		*[!a-z0-9-]*) ;; # an editor's backup, a .orig: not a guest
		*) echo "${f##*/}" ;;
		esac
	done
}

# Load guest $1's manifest (qemu/guests/$1; its fields are described in
# qemu/guests/pc) into the globals qemu, kernel, tests, skip, last, extra,
# timeout, cmdline and debug_cmdline.
load_guest() {
	local f
	f=$(dirname "${BASH_SOURCE[0]}")/guests/$1
	case "$1" in
	"" | *[!a-z0-9-]*) die "unknown guest '$1' (one of: $(guest_names | tr '\n' ' '))" ;;
	esac
	[ -f "$f" ] || die "unknown guest '$1' (one of: $(guest_names | tr '\n' ' '))"
	# shellcheck disable=SC2034 # the fields, read by the callers
	qemu=() kernel=patched tests=() skip=() last="" extra=no timeout=1500 cmdline=() \
		debug_cmdline=(panic_on_warn=1)
	# shellcheck source=/dev/null
	. "$f"
	case "$timeout" in
	"" | *[!0-9]* | 0*) die "qemu/guests/$1: timeout='$timeout': a number of seconds" ;;
	esac
}

# True when guest $1 runs TESTS_EXTRA (extra=yes in its manifest).
runs_extra() {
	(load_guest "$1" && [ "$extra" = yes ])
}

# The test files guest $1 runs, one a line, in order: tests-bats/'s files
# that match its tests and not its skip globs (nor its last), by name (C
# collation, whatever the host's locale); then TESTS_EXTRA's (a
# directory; where extra=yes), as /tests-extra/NAME, so that one named as
# a file of tests-bats/ is still the user's; then its last file. With
# ONLY_EXTRA=1, TESTS_EXTRA's alone.
guest_tests() {
	local f name g take top
	top=$(dirname "${BASH_SOURCE[0]}")/..
	(
		export LC_ALL=C
		load_guest "$1"
		if [ "${ONLY_EXTRA:-0}" != 1 ]; then
			for f in "$top"/tests-bats/*.bats; do
				name=${f##*/}
				take=no
				for g in "${tests[@]}"; do
					# shellcheck disable=SC2053 # a glob, on purpose
					[[ $name == $g ]] && take=yes
				done
				for g in "${skip[@]}" "$last"; do
					# shellcheck disable=SC2053
					[[ $name == $g ]] && take=no
				done
				[ "$take" = no ] || printf '%s\n' "$name"
			done
		fi
		if [ "$extra" = yes ] && [ -n "${TESTS_EXTRA:-}" ]; then
			for f in "$TESTS_EXTRA"/*.bats; do
				[ ! -e "$f" ] || printf '/tests-extra/%s\n' "${f##*/}"
			done
		fi
		[ -z "$last" ] || [ "${ONLY_EXTRA:-0}" = 1 ] || printf '%s\n' "$last"
	)
}

# The linux-source-$KVER tarball installed by Debian's package.
kernel_tarball() {
	local t v
	v=$(kver)
	for t in "/usr/src/linux-source-$v.tar.xz" "/usr/src/linux-source-$v.tar.bz2"; do
		if [ -f "$t" ]; then
			printf '%s\n' "$t"
			return 0
		fi
	done
	die "linux-source-$v tarball not found under /usr/src (apt-get install linux-source-$v)"
}

# The accelerator for a guest on kernel $1: ACCEL when it is tcg or kvm;
# with auto (the Makefile's default) kvm when KVM_DEV (/dev/kvm; another
# path only in the harness's tests) opens and the kernel gets under KVM to
# its first console line within 10 s, else tcg. The probe boots the kernel
# itself: nested KVM can run a vCPU's first instructions and never a
# kernel (seen on this project's 2-CPU hosts). Its answer, a property of
# the host, is kept in BUILD/accel/ (default build/) by QEMU's version and
# the host kernel: one probe per host.
guest_accel() {
	local kernel=$1 dir key answer=tcg pid i
	case "${ACCEL:-auto}" in
	tcg | kvm)
		echo "$ACCEL"
		return 0
		;;
	auto) ;;
	*) die "ACCEL='$ACCEL': tcg, kvm or auto" ;;
	esac
	if [ ! -s "$kernel" ] || ! { : <>"${KVM_DEV:-/dev/kvm}"; } 2>/dev/null; then
		echo tcg
		return 0
	fi
	dir=${BUILD:-$(dirname "${BASH_SOURCE[0]}")/../build}/accel
	key=$({ qemu-system-x86_64 --version; uname -rv; } 2>&1 | sha256sum | cut -c1-16)
	if [ -s "$dir/$key" ]; then
		cat "$dir/$key"
		return 0
	fi
	mkdir -p "$dir"
	qemu-system-x86_64 -accel kvm -M pc -m 128M -nodefaults -display none -no-reboot \
		-serial "file:$dir/$key.console" -kernel "$kernel" \
		-append "console=ttyS0 panic=-1 rdinit=/pci-mwi-probe init=/pci-mwi-probe" \
		</dev/null >/dev/null 2>&1 &
	pid=$!
	for ((i = 0; i < 100; i++)); do
		if grep -q 'Linux version' "$dir/$key.console" 2>/dev/null; then
			answer=kvm
			break
		fi
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	rm -f "$dir/$key.console"
	echo "$answer" >"$dir/$key.$$"
	mv "$dir/$key.$$" "$dir/$key"
	echo "$answer"
}

# A copy of the project in the new directory $1, as git checkouts: every
# file git tracks or would track (not what it ignores), committed there,
# since the caches key from git. For the harness's own tests and mutants.
project_copy() {
	mkdir "$1"
	(cd "$(dirname "${BASH_SOURCE[0]}")/.." &&
		git ls-files -z --cached --others --exclude-standard | cpio -0pdm --quiet "$1")
	git -C "$1" init -q
	git -C "$1" add -A
	git -C "$1" -c user.name=pci-mwi -c user.email=pci-mwi@example.org commit -qm copy
}

# The project's files under the git pathspecs $@ as they are now, hashed:
# the index (git ls-files -s), every change not staged (git diff) and every
# file git does not ignore but does not track yet, so that no input of a
# cached result can be left out of its key by a hand-written list. Prints
# nothing outside a git checkout: then nothing is answered from a cache.
git_key() {
	local top
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1 || return 0
	{
		git -C "$top" ls-files -s -- "$@"
		git -C "$top" diff --no-ext-diff --no-textconv --binary -- "$@"
		git -C "$top" ls-files -z --others --exclude-standard -- "$@" |
			(cd "$top" && xargs -0r sha256sum --)
	} | sha256sum | cut -d' ' -f1
}

# A newc cpio archive of directory $1 on stdout, byte-identical for
# identical content (mtimes zeroed, names sorted, inode numbers fixed), so
# that a rebuilt but unchanged archive keeps the guests' cache keys. Extra
# arguments go to find (-mindepth 1 leaves "." out).
reproducible_cpio() {
	local dir=$1
	shift
	find "$dir" -exec touch -h -d @0 {} +
	(cd "$dir" && find . "$@" -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc --quiet --reproducible)
}

# "6.1.192" from a kernel tree's Makefile.
kernel_version() {
	make -s --no-print-directory -C "$1" kernelversion 2>/dev/null
}

# True when guest $1 boots a debug kernel (KASAN, lockdep): its kernel
# is stress, or DEBUG_KERNEL=1 and it is not field (Debian's own).
debug_machine() {
	local k
	k=$(load_guest "$1" && echo "$kernel")
	[ "$k" != field ] && { [ "${DEBUG_KERNEL:-0}" = 1 ] || [ "$k" = stress ]; }
}

# The kernel guest $1 boots, by its manifest's kernel: KERNEL_FIELD
# (Debian's own, from field-kernel.sh) for field, else KERNEL_DEBUG with
# DEBUG_KERNEL=1, else KERNEL_STRESS for stress, KERNEL_NODEBUGFS for
# nodebugfs, KERNEL for patched. Each defaults to its file under
# build/KVER/ (field: build/).
guest_kernel() {
	local b k=arch/x86/boot/bzImage flavour
	b=$(dirname "${BASH_SOURCE[0]}")/../build
	flavour=$(load_guest "$1" && echo "$kernel") || return 1
	if [ "$flavour" = field ]; then
		printf '%s\n' "${KERNEL_FIELD:-$b/field/vmlinuz}"
	elif [ "${DEBUG_KERNEL:-0}" = 1 ]; then
		printf '%s\n' "${KERNEL_DEBUG:-$b/$(kver)/kobj-debug/$k}"
	else
		case "$flavour" in
		stress) printf '%s\n' "${KERNEL_STRESS:-$b/$(kver)/kobj-stress/$k}" ;;
		nodebugfs) printf '%s\n' "${KERNEL_NODEBUGFS:-$b/$(kver)/kobj-nodebugfs/$k}" ;;
		*) printf '%s\n' "${KERNEL:-$b/$(kver)/kobj/$k}" ;;
		esac
	fi
}

# The initramfs guest $1 boots, chosen as guest_kernel chooses.
guest_initrd() {
	local b flavour
	b=$(dirname "${BASH_SOURCE[0]}")/../build
	flavour=$(load_guest "$1" && echo "$kernel") || return 1
	if [ "$flavour" = field ]; then
		printf '%s\n' "${INITRD_FIELD:-$b/initramfs-field.cpio}"
	elif [ "${DEBUG_KERNEL:-0}" = 1 ]; then
		printf '%s\n' "${INITRD_DEBUG:-$b/$(kver)/initramfs-debug.cpio}"
	elif [ "$flavour" = stress ]; then
		printf '%s\n' "${INITRD_STRESS:-$b/$(kver)/initramfs-stress.cpio}"
	else
		printf '%s\n' "${INITRD:-$b/$(kver)/initramfs.cpio}"
	fi
}
