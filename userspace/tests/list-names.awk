# SPDX-License-Identifier: GPL-2.0
# "SLOT CLASS: DEVICE" from "mwictl list": the CLASS and DEVICE columns cut
# at the offsets of the header, as lspci prints a function without -v.
# Used by the host tests and, in the guest, by tests-bats/lib/names.bash.
NR == 1 { c = index($0, "CLASS"); d = index($0, "DRIVER"); v = index($0, "DEVICE"); next }
{
	slot = substr($0, 1, c - 1); class = substr($0, c, d - c)
	sub(/ +$/, "", slot); sub(/ +$/, "", class)
	print slot " " class ": " substr($0, v)
}
