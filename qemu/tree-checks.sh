#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tree-checks.sh OUTDIR
#
# The host checks of one kernel tree: its series (series-tests.sh:
# checkpatch, Cc:, git am, the same patches as the other trees'), and with
# KOBJ_W1 set the files the series touches compiled with W=1 for x86_64
# and, with Debian's cross compilers, for each architecture of W1_CROSS
# (default "powerpc sh s390") (w1-check.sh), and with KOBJ and
# KOBJ_NODEBUGFS set that the series leaves struct pci_dev as it was
# (pcidev-size.sh; the Makefile sets KOBJ_NODEBUGFS only for a tree with a
# nodebugfs guest). TAP, then the summary and OUTDIR/counts (tap.sh). A
# check whose inputs are those of its last green run shows that run's
# output, marked "(cached)"; FORCE=1 or CI=true runs everything.
#
# Environment: KSRC and PATCHDIR (the patched tree and its series,
# kernel-patches/KVER/), KOBJ_W1, W1_CROSS, KOBJ, KOBJ_NODEBUGFS, FORCE, CI.
set -eu
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/tap.sh"

outdir=$1
tap_start "$outdir" tree-checks.sh

# The patched tree's content: its commit's tree (not the commit: a patch's
# message is not compiled) and any change not committed.
ksrc_key() {
	{ git -C "$KSRC" rev-parse "HEAD^{tree}"; git -C "$KSRC" diff HEAD; } 2>/dev/null | sha256sum | cut -d' ' -f1
}

host_tap series "kernel series (host)" \
	"$(harness_key kernel-patches)$(inputs_key "$KSRC/scripts/checkpatch.pl" \
		"$KSRC/scripts/get_maintainer.pl" "$KSRC/MAINTAINERS")" \
	"$here/checks/series-tests.sh" "$KSRC" "$PATCHDIR"
if [ -n "${KOBJ_W1:-}" ]; then
	host_tap w1 "files the series touches, compiled with W=1 (host)" \
		"$(ksrc_key)$(harness_key)" \
		"$here/checks/w1-check.sh" "$KSRC" "$KOBJ_W1" pristine
	for arch in ${W1_CROSS-powerpc sh s390}; do
		host_tap "w1-$arch" "files the series touches, compiled with W=1 for $arch (host)" \
			"$(ksrc_key)$(harness_key)$arch" \
			"$here/checks/w1-check.sh" "$KSRC" "$KOBJ_W1-$arch" pristine "$arch"
	done
fi
if [ -n "${KOBJ:-}" ] && [ -n "${KOBJ_NODEBUGFS:-}" ]; then
	host_ok pcidev-size "the series leaves struct pci_dev as it was, with and without CONFIG_DEBUG_FS" \
		"$(ksrc_key)$(harness_key)$(inputs_key "$KOBJ/vmlinux" "$KOBJ_NODEBUGFS/vmlinux")" \
		"$here/checks/pcidev-size.sh" "$KSRC" "$KOBJ" "$KOBJ_NODEBUGFS"
fi
tap_finish
