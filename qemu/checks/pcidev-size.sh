#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# pcidev-size.sh KSRC KOBJ KOBJ_NODEBUGFS
#
# What the series costs every PCI device: nothing. Passes (exit 0) when the
# series leaves the definition of struct pci_dev in include/linux/pci.h as
# it is in the pristine tree (tag "pristine" of KSRC), and when a one-line
# module built against the guest kernel with CONFIG_DEBUG_FS (KOBJ) and
# without it (KOBJ_NODEBUGFS) sees the same sizeof(struct pci_dev).
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# sizeof(struct pci_dev) in the kernel built in $1, in bytes.
pci_dev_size() {
	rm -f "$dir"/*.o "$dir"/*.ko
	make -s -C "$1" M="$dir" modules >"$dir/build.log" 2>&1 || {
		cat "$dir/build.log" >&2
		return 1
	}
	printf '%d\n' "0x$(nm -S "$dir/size.o" | awk '$4 == "pci_dev_size" { print $2 }')"
}

printf 'obj-m := size.o\n' >"$dir/Kbuild"
cat >"$dir/size.c" <<'C'
#include <linux/module.h>
#include <linux/pci.h>
char pci_dev_size[sizeof(struct pci_dev)];
EXPORT_SYMBOL(pci_dev_size);
MODULE_LICENSE("GPL");
C
# The lines of "struct pci_dev {" ... "};" in include/linux/pci.h of $1.
pci_dev_definition() {
	git -C "$ksrc" show "$1:include/linux/pci.h" | sed -n '/^struct pci_dev {$/,/^};$/p'
}

ksrc=$1
before=$(pci_dev_definition pristine)
after=$(pci_dev_definition HEAD)
with=$(pci_dev_size "$2")
without=$(pci_dev_size "$3")
printf 'struct pci_dev: %s bytes with CONFIG_DEBUG_FS, %s without; definition %s by the series\n' \
	"$with" "$without" "$([ "$before" = "$after" ] && echo unchanged || echo changed)"
[ -n "$before" ] && [ "$before" = "$after" ] &&
	[ -n "$with" ] && [ -n "$without" ] && [ "$with" = "$without" ]
