// SPDX-License-Identifier: GPL-2.0
/*
 * lspci's -s and -d: parsed by libpci (same syntax, same messages), matched
 * here against what sysfs said, with lspci's rule that -1 matches anything.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mwictl.h"

/* Parse -s (@slot != 0) or -d @spec into @f. 0, or -1 with @err set. */
int filter_parse(struct pci_filter *f, const char *spec, int slot, char *err, size_t errsz)
{
	char *copy = strdup(spec);
	char *msg;

	if (!copy) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	pci_filter_init(NULL, f);
	msg = slot ? pci_filter_parse_slot(f, copy) : pci_filter_parse_id(f, copy);
	if (msg)
		snprintf(err, errsz, "-%c %s: %s", slot ? 's' : 'd', spec, msg);
	free(copy);
	return msg ? -1 : 0;
}

static int field_match(int want, int have)
{
	return want < 0 || want == have;
}

/* 1 if @d passes @f, else 0. */
int filter_match(const struct pci_filter *f, const struct dev *d)
{
	if (!field_match(f->domain, d->domain) || !field_match(f->bus, d->bus) ||
	    !field_match(f->slot, d->devnum) || !field_match(f->func, d->func) ||
	    !field_match(f->vendor, d->vendor) || !field_match(f->device, d->device))
		return 0;
	if (f->device_class >= 0 &&
	    (d->class < 0 ||
	     (((unsigned int)d->class >> 8) ^ (unsigned int)f->device_class) & f->device_class_mask))
		return 0;
	return f->prog_if < 0 || (d->class >= 0 && (d->class & 0xff) == f->prog_if);
}
