// SPDX-License-Identifier: GPL-2.0
/*
 * Names from pci.ids through libpci, as lspci prints them. No bus scan:
 * the pci_access is only used for the ID database.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <pci/pci.h>

#include "mwictl.h"

static struct pci_access *pacc;
static int numeric_only;

static void quiet(char *msg, ...) PCI_PRINTF(1, 2);
static void quiet(char *msg, ...)
{
	(void)msg;
}

static void fatal(char *msg, ...) PCI_PRINTF(1, 2) PCI_NONRET;
static void fatal(char *msg, ...)
{
	va_list ap;

	va_start(ap, msg);
	fputs("mwictl: libpci: ", stderr);
	vfprintf(stderr, msg, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(EXIT_IO);
}

void names_init(int numeric)
{
	numeric_only = numeric;
	if (numeric)
		return;
	pacc = pci_alloc();
	pacc->error = fatal;
	pacc->warning = quiet;
	pacc->debug = quiet;
}

void names_cleanup(void)
{
	if (pacc)
		pci_cleanup(pacc);
	pacc = NULL;
}

/* "Ethernet controller", or "0200" with -n, or "?" when unreadable; in @buf. */
const char *name_class(int class, char *buf, size_t size)
{
	if (class < 0)
		snprintf(buf, size, "?");
	else if (numeric_only)
		snprintf(buf, size, "%04x", (unsigned int)class >> 8);
	else
		pci_lookup_name(pacc, buf, (int)size, PCI_LOOKUP_CLASS | PCI_LOOKUP_NO_HWDB,
				class >> 8);
	return buf;
}

/* "Intel Corporation 82540EM ...", "8086:100e" with -n, or "?"; in @buf. */
const char *name_device(int vendor, int device, char *buf, size_t size)
{
	if (vendor < 0 || device < 0)
		snprintf(buf, size, "?");
	else if (numeric_only)
		snprintf(buf, size, "%04x:%04x", (unsigned int)vendor, (unsigned int)device);
	else
		pci_lookup_name(pacc, buf, (int)size,
				PCI_LOOKUP_VENDOR | PCI_LOOKUP_DEVICE | PCI_LOOKUP_NO_HWDB,
				vendor, device);
	return buf;
}
