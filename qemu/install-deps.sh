#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages the harness needs, only when some are missing.
set -eu

PKGS="linux-source-6.12 linux-source-6.1 qemu-system-x86 busybox-static bats bats-support bats-assert
pciutils util-linux flex bison bc libelf-dev libssl-dev cpio xz-utils kmod
gcc libc6-dev make git perl python3 clang jq man-db groff-base bash-completion procps
libpci-dev pkg-config tmux mandoc lintian debhelper dpkg-dev fakeroot udev file ccache
gcc-powerpc64le-linux-gnu gcc-sh4-linux-gnu gcc-s390x-linux-gnu"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

# shellcheck disable=SC2086
line="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" != 0 ]; then
	printf 'pci-mwi: missing packages; as root run:\n  %s\n' "$line" >&2
	exit 1
fi
printf '==> installing:%s\n' "$missing" >&2
apt-get update -q
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
