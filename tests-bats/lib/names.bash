# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Part of the bats library "pci-mwi" (load.bash sources it).

# ---- names (mwictl.bats) ----

# "SLOT CLASS: DEVICE" of every function as lspci prints it; arguments
# (-nn) go to lspci.
lspci_names() {
	lspci -D "$@" | sed 's/ (rev [0-9a-f]*)$//'
}

# The same from mwictl list's CLASS and DEVICE columns, cut at the offsets
# of its header.
mwictl_names() {
	mwictl list "$@" | awk -f /usr/lib/bats/pci-mwi/list-names.awk
}
