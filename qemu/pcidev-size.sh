#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# pcidev-size.sh KOBJ KOBJ_NODEBUGFS
#
# What the series' debugfs bookkeeping costs every PCI device: build a
# one-line module against the guest kernel with CONFIG_DEBUG_FS (KOBJ) and
# without it (KOBJ_NODEBUGFS), and compare sizeof(struct pci_dev). Passes
# (exit 0) when the difference is one pointer.
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
with=$(pci_dev_size "$1")
without=$(pci_dev_size "$2")
printf 'struct pci_dev: %s bytes with CONFIG_DEBUG_FS, %s without\n' "$with" "$without"
[ -n "$with" ] && [ -n "$without" ] && [ "$((with - without))" = 8 ]
