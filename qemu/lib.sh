# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the harness scripts. Sourced, never run.

say() {
	printf '==> %s\n' "$*" >&2
}

die() {
	printf 'pci-mwi: %s\n' "$*" >&2
	exit 1
}

# The linux-source-6.1 tarball installed by Debian's package.
kernel_tarball() {
	local t
	for t in /usr/src/linux-source-6.1.tar.xz /usr/src/linux-source-6.1.tar.bz2; do
		if [ -f "$t" ]; then
			printf '%s\n' "$t"
			return 0
		fi
	done
	die "linux-source-6.1 tarball not found under /usr/src (apt-get install linux-source-6.1)"
}

# "6.1.192" from a kernel tree's Makefile.
kernel_version() {
	make -s --no-print-directory -C "$1" kernelversion 2>/dev/null
}
