#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-kernel.sh KSRC KOBJ FRAGMENT...
#
# Configure KOBJ as "make tinyconfig" plus the fragments (merged with
# scripts/kconfig/merge_config.sh), check that every fragment option made it
# into the final .config, then build bzImage and modules. Reconfigures only
# when a fragment or the tree's Kconfig files changed; kbuild does the rest
# incrementally.
set -eu
here=$(dirname "$0")
. "$here/lib.sh"

ksrc=$(realpath "$1")
kobj=$2
shift 2
mkdir -p "$kobj"
kobj=$(realpath "$kobj")
jobs=$(($(nproc) + 1))

# The same tree and configuration give a byte-identical bzImage (no build
# time, user, host or build count in it), so that a change that leaves the
# code alone, a patch's message say, keeps every guest's cache key.
# The time is that of the linux-source-$KVER tarball the tree came from.
KBUILD_BUILD_TIMESTAMP=$(LC_ALL=C date -u -d "@$(stat -c %Y "$(kernel_tarball)")")
export KBUILD_BUILD_TIMESTAMP
export KBUILD_BUILD_USER=pci-mwi KBUILD_BUILD_HOST=guest KBUILD_BUILD_VERSION=1

# Every kernel compiles through one ccache next to the build directories:
# the CONFIG_DEBUG_FS=n kernel finds about two thirds of its objects in
# what the first kernel left there. (A worktree, as bisect and mutants use,
# has other source paths, so shares nothing with build/KVER/linux.)
export CCACHE_DIR=${CCACHE_DIR:-$(dirname "$kobj")/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-4G}

kmake() {
	make -s -C "$ksrc" O="$kobj" ARCH=x86_64 CC="ccache gcc" "$@"
}

fragments=()
for f in "$@"; do
	fragments+=("$(realpath "$f")")
done

# Fail when an option of a fragment did not end up in .config as written.
# A later fragment overrides an earlier one, as in merge_config.sh.
verify_config() {
	local -A want from
	local frag line opt bad=0
	for frag in "${fragments[@]}"; do
		while IFS= read -r line; do
			case "$line" in
			CONFIG_*=*) opt=${line%%=*} ;;
			"# CONFIG_"*" is not set") opt=${line#\# } opt=${opt%% *} ;;
			*) continue ;;
			esac
			want[$opt]=$line
			from[$opt]=$(basename "$frag")
		done <"$frag"
	done
	for opt in "${!want[@]}"; do
		line=${want[$opt]}
		case "$line" in
		CONFIG_*) grep -qxF "$line" "$kobj/.config" && continue ;;
		*) grep -q "^$opt=" "$kobj/.config" || continue ;;
		esac
		printf 'pci-mwi: %s: %s was dropped; .config has: %s\n' "${from[$opt]}" "$line" \
			"$(grep -E "(^| )${opt}[= ]" "$kobj/.config" || echo 'nothing')" >&2
		bad=1
	done
	return "$bad"
}

configure() {
	say "configuring $kobj: tinyconfig + ${fragments[*]##*/}"
	kmake tinyconfig >/dev/null
	(cd "$kobj" && KCONFIG_CONFIG=.config "$ksrc/scripts/kconfig/merge_config.sh" \
		-m -O "$kobj" .config "${fragments[@]}" >/dev/null)
	kmake olddefconfig >/dev/null
	verify_config || die "guest kernel configuration is incomplete"
}

stamp="$kobj/.pci-mwi-config"
fragments_key=$(cat "${fragments[@]}" | sha256sum | cut -d' ' -f1)
if [ ! -f "$kobj/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$fragments_key" ]; then
	configure
	printf '%s\n' "$fragments_key" >"$stamp"
fi
verify_config || die "guest kernel configuration is incomplete"

# Nothing to do when the tree (its content, not the commit: a message edit
# compiles nothing; and uncommitted changes) and the
# fragments are those of the last build: kbuild would take ~15 s to find
# that out on its own.
built="$kobj/.pci-mwi-built"
key=$({ git -C "$ksrc" rev-parse "HEAD^{tree}"; git -C "$ksrc" diff HEAD; cat "${fragments[@]}"; } |
	sha256sum | cut -d' ' -f1)
if [ -f "$kobj/arch/x86/boot/bzImage" ] && [ "$(cat "$built" 2>/dev/null)" = "$key" ]; then
	say "kernel in $kobj is up to date"
	exit 0
fi
rm -f "$built"
say "building kernel in $kobj"
kmake -j"$jobs" bzImage modules
rm -rf "$kobj/modroot"
kmake INSTALL_MOD_PATH="$kobj/modroot" modules_install >/dev/null
printf '%s\n' "$key" >"$built"
