#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# How the dumps beside this script were made (run it there to make them
# again): config space written into a fake sysfs tree, dumped by lspci
# itself, -x (64 bytes) and -xxx (256 bytes), as a user sends one; a -x
# dump of the PCI Express function ends before its capability list.
#   00:04.0 1000:0012 SCSI, conventional PCI, COMMAND 0x0017: MWI on, CLS 64
#   00:05.0 8086:100e Ethernet, conventional PCI, COMMAND 0x0007: MWI off, CLS 32
#   01:00.0 8086:10d3 Ethernet, PCI Express (capabilities: PM at 0x40,
#           Express at 0x50), COMMAND 0x0417: bit 4 set, yet MWI cannot exist
set -eu
cd "$(dirname "$0")"
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
python3 - "$root" <<'PY'
import os, sys
root = sys.argv[1]
def dev(slot, vendor, device, cmd, cls_code, cls, caps=False):
    d = f"{root}/bus/pci/devices/0000:{slot}"
    os.makedirs(d)
    c = bytearray(256)
    c[0:2] = vendor.to_bytes(2, "little"); c[2:4] = device.to_bytes(2, "little")
    c[4:6] = cmd.to_bytes(2, "little")
    c[8] = 1; c[9:12] = cls_code.to_bytes(3, "little"); c[12] = cls
    if caps:
        c[6] = 0x10; c[0x34] = 0x40
        c[0x40] = 0x01; c[0x41] = 0x50; c[0x42] = 0x03
        c[0x50] = 0x10; c[0x51] = 0x00; c[0x52] = 0x02
    open(f"{d}/config", "wb").write(bytes(c))
    for name, val in (("vendor", vendor), ("device", device), ("class", cls_code)):
        open(f"{d}/{name}", "w").write(f"0x{val:04x}\n")
dev("00:04.0", 0x1000, 0x0012, 0x0017, 0x010000, 16)
dev("00:05.0", 0x8086, 0x100e, 0x0007, 0x020000, 8)
dev("01:00.0", 0x8086, 0x10d3, 0x0417, 0x020000, 16, caps=True)
PY
lspci -A linux-sysfs -O "sysfs.path=$root/bus/pci" -x -s 00: >conventional-x.dump
lspci -A linux-sysfs -O "sysfs.path=$root/bus/pci" -xxx >all-xxx.dump
lspci -A linux-sysfs -O "sysfs.path=$root/bus/pci" -x -s 01: >pcie-x.dump
