// SPDX-License-Identifier: GPL-2.0
/*
 * "mwictl rule on|off": udev rules that turn MWI on or off when a function
 * is added, for the slots and IDs selected (see the admin guide). Only
 * "add": udev sets the attribute before its RUN loads a modular driver, and
 * once a driver is bound the kernel refuses the write (EBUSY), so a rule on
 * "bind" could never work. TEST=="mwi" keeps the rule away from functions
 * without the attribute (PCI Express, VFs, kernels without the series),
 * which would otherwise log a failed write on every add.
 */
#include <stdio.h>
#include <pci/pci.h>

#include "mwictl.h"

/* "0x" and six digits of the class attribute, "?" for each one -d leaves open. */
static void class_glob(const struct pci_filter *f, char *buf)
{
	static const char hex[] = "0123456789abcdef";
	int i;

	buf[0] = '0';
	buf[1] = 'x';
	for (i = 0; i < 4; i++) {
		unsigned int shift = 12 - 4 * i;

		buf[2 + i] = f->device_class >= 0 && ((f->device_class_mask >> shift) & 0xf) == 0xf ?
			     hex[(f->device_class >> shift) & 0xf] : '?';
	}
	buf[6] = f->prog_if >= 0 ? hex[(f->prog_if >> 4) & 0xf] : '?';
	buf[7] = f->prog_if >= 0 ? hex[f->prog_if & 0xf] : '?';
	buf[8] = '\0';
}

/* Whether -d names anything at all ("-d :" does not). */
int rule_ids_given(const struct pci_filter *f)
{
	return f && (f->vendor >= 0 || f->device >= 0 || f->device_class >= 0 || f->prog_if >= 0);
}

/* The comment above the rules: where they go and what they do. */
void print_rule_header(int on)
{
	printf("# Turn PCI Memory-Write-and-Invalidate %s when the function appears, before a\n"
	       "# driver binds to it. Save as /etc/udev/rules.d/70-mwi.rules; see mwictl(8).\n",
	       on ? "on" : "off");
}

/*
 * One rule for the function @d (by slot) and/or the IDs of @f (NULL: any)
 * that writes 1 (@on) or 0 to its mwi attribute, where it has one.
 */
void print_rule(const struct dev *d, const struct pci_filter *f, int on)
{
	char class[9];

	fputs("ACTION==\"add\", SUBSYSTEM==\"pci\"", stdout);
	if (d)
		printf(", KERNEL==\"%s\"", d->slot);
	if (f && f->vendor >= 0)
		printf(", ATTR{vendor}==\"0x%04x\"", f->vendor);
	if (f && f->device >= 0)
		printf(", ATTR{device}==\"0x%04x\"", f->device);
	if (f && (f->device_class >= 0 || f->prog_if >= 0)) {
		class_glob(f, class);
		printf(", ATTR{class}==\"%s\"", class);
	}
	printf(", TEST==\"mwi\", ATTR{mwi}=\"%d\"\n", on);
}
