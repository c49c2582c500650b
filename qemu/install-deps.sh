#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages the harness needs, only when some are missing.
#
# Each tree's source is Debian's linux-source-<tree> (one tree per
# directory of kernel-patches/). A Debian 12 host has linux-source-6.12
# from bookworm-security; linux-source-7.2 comes from trixie-backports.
# The field guest's kernel is Debian 13's (trixie's) stock kernel,
# downloaded, never installed. So trixie and trixie-backports are added as
# apt sources, from the mirror this host's own Debian sources use, pinned at
# priority 1 (/etc/apt/preferences.d/pci-mwi): apt takes a package from
# them only when asked for one that no other suite has, and never upgrades
# anything installed from them.
set -eu
here=$(dirname "$0")
. "$here/lib.sh"

PKGS="qemu-system-x86 busybox-static bats bats-support bats-assert
pciutils util-linux flex bison bc libelf-dev libssl-dev cpio xz-utils kmod
gcc libc6-dev make git perl python3 clang jq man-db groff-base bash-completion procps
libpci-dev pkg-config tmux mandoc lintian debhelper dpkg-dev fakeroot udev file ccache
shellcheck sparse gcc-powerpc64le-linux-gnu gcc-sh4-linux-gnu gcc-s390x-linux-gnu"
for t in $(trees); do
	PKGS="linux-source-$t $PKGS"
done

SOURCES=/etc/apt/sources.list.d/pci-mwi-trixie.sources
PREFS=/etc/apt/preferences.d/pci-mwi

# The Debian mirror of this host's own sources (deb822 or one-line form).
debian_mirror() {
	{
		sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null
		sed -n 's/^deb  *\(\[[^]]*\] *\)\{0,1\}\([^ ]*\) .*/\2/p' /etc/apt/sources.list 2>/dev/null
	} | grep -v -e -security -e '^$' | grep -m1 '/debian/\{0,1\}$'
}

add_trixie() {
	local uri
	[ -f "$SOURCES" ] && [ -f "$PREFS" ] && return 1
	uri=$(debian_mirror) || die "no Debian mirror among this host's apt sources to add trixie from"
	printf '==> adding trixie and trixie-backports from %s at apt priority 1\n' "$uri" >&2
	cat >"$SOURCES" <<-EOF
		# pci-mwi (qemu/install-deps.sh): linux-source-7.2 and Debian 13's
		# stock kernel for the field guest; pinned in $PREFS.
		Types: deb
		URIs: $uri
		Suites: trixie trixie-backports
		Components: main
		Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	EOF
	cat >"$PREFS" <<-EOF
		# pci-mwi: nothing is upgraded from these suites; a package is
		# taken from them only when no other suite has it.
		Package: *
		Pin: release n=trixie
		Pin-Priority: 1

		Package: *
		Pin: release n=trixie-backports
		Pin-Priority: 1
	EOF
}

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
		missing="$missing $p"
	fi
done
# The field guest downloads trixie's kernel package: the suite must be known.
[ -z "$missing" ] && [ -f "$SOURCES" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	printf 'pci-mwi: missing packages or apt sources; as root run: %s\n' "$0" >&2
	exit 1
fi
add_trixie || true
[ -n "$missing" ] && printf '==> installing:%s\n' "$missing" >&2
apt-get update -q
[ -z "$missing" ] && exit 0
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
