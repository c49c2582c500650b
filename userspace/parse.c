// SPDX-License-Identifier: GPL-2.0
/*
 * Parsers for what the kernel exposes in sysfs and debugfs. No I/O here:
 * every function takes a buffer, so the fuzz target can call them all.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mwictl.h"

#define PCI_COMMAND		0x04
#define PCI_COMMAND_INVALIDATE	0x10
#define PCI_CACHE_LINE_SIZE	0x0c

/* "0000:00:02.0" (the domain may have more than 4 digits): 0 or -1. */
int parse_slot_name(const char *name, struct dev *d)
{
	unsigned int dom, bus, dev, fn;
	int end = 0;

	if (strlen(name) >= sizeof(d->slot))
		return -1;
	if (sscanf(name, "%8x:%2x:%2x.%1x%n", &dom, &bus, &dev, &fn, &end) != 4 ||
	    name[end] || dev > 31 || fn > 7 || dom > 0x7fffffff ||
	    !isxdigit((unsigned char)name[0]))
		return -1;
	strcpy(d->slot, name);
	d->domain = (int)dom;
	d->bus = (int)bus;
	d->devnum = (int)dev;
	d->func = (int)fn;
	return 0;
}

/* A sysfs hex attribute such as "0x10ec\n", at most @max: 0 or -1. */
int parse_hex_attr(const char *buf, size_t len, unsigned int max, unsigned int *val)
{
	unsigned long v = 0;
	size_t i = 2;

	if (len && buf[len - 1] == '\n')
		len--;
	if (len < 3 || len > 10 || buf[0] != '0' || buf[1] != 'x')
		return -1;
	for (; i < len; i++) {
		if (!isxdigit((unsigned char)buf[i]))
			return -1;
		v = v * 16 + (unsigned long)(isdigit((unsigned char)buf[i]) ?
			buf[i] - '0' : tolower((unsigned char)buf[i]) - 'a' + 10);
	}
	if (v > max)
		return -1;
	*val = (unsigned int)v;
	return 0;
}

/* The mwi attribute: "0\n" or "1\n". Returns 0, 1, or -1 for garbage. */
int parse_mwi_attr(const char *buf, size_t len)
{
	if (len == 2 && buf[1] == '\n' && (buf[0] == '0' || buf[0] == '1'))
		return buf[0] - '0';
	return -1;
}

/* Bit 4 of COMMAND from the start of config space: 0, 1, or -1 if short. */
int config_mwi(const unsigned char *cfg, size_t len)
{
	if (len < PCI_COMMAND + 2)
		return -1;
	return !!(cfg[PCI_COMMAND] & PCI_COMMAND_INVALIDATE);
}

/* Cache Line Size register in bytes (it counts 32-bit words); -1 if short. */
int config_cls_bytes(const unsigned char *cfg, size_t len)
{
	if (len < PCI_CACHE_LINE_SIZE + 1)
		return -1;
	return cfg[PCI_CACHE_LINE_SIZE] * 4;
}

/*
 * One row of <debugfs>/pci/mwi (Documentation/ABI/testing/debugfs-pci-mwi):
 * "SLOT HW CLS REQUESTS REFUSED ERRORS CLEARS LAST REQUESTER", CLS a number
 * of bytes or "?". Returns 0, or -1 for a header, a comment or garbage.
 */
int parse_diag_row(const char *line, char *slot, size_t slotsz, struct mwi_diag *diag)
{
	char s[24], hw[8], cls[8], last[24], req[128], *end;
	long bytes = -1;
	int n = 0;

	if (sscanf(line, "%23s %7s %7s %lu %lu %lu %lu %23s %n", s, hw, cls,
		   &diag->requests, &diag->refused, &diag->errors,
		   &diag->clears, last, &n) != 8 || !n)
		return -1;
	if (sscanf(line + n, "%127[^\n]", req) != 1 || strlen(s) >= slotsz ||
	    !isxdigit((unsigned char)s[0]))
		return -1;
	if (strcmp(cls, "?")) {
		bytes = strtol(cls, &end, 10);
		if (*end || bytes < 0 || bytes > 1020)
			return -1;
	}
	strcpy(slot, s);
	strcpy(diag->hw, hw);
	strcpy(diag->last, last);
	strcpy(diag->requester, req);
	diag->cls_bytes = (int)bytes;
	diag->valid = 1;
	return 0;
}
