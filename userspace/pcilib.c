// SPDX-License-Identifier: GPL-2.0
/*
 * What libpci already does, from libpci: vendor, device and class names
 * (the distribution's pci.ids, pci.ids.gz, udev's hwdb; -n and -nn as lspci
 * prints them) and lspci's -s and -d filters. Enumeration and MWI state stay
 * with sysfs.c.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pci/pci.h>

#include "mwictl.h"

static struct pci_access *pacc;

static void __attribute__((format(printf, 1, 0)))
lib_vmsg(const char *fmt, va_list ap)
{
	fputs("mwictl: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* libpci's fatal errors, e.g. a pci.ids it cannot parse. */
static void __attribute__((format(printf, 1, 2), noreturn)) lib_error(char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lib_vmsg(fmt, ap);
	va_end(ap);
	exit(EXIT_IO);
}

static void __attribute__((format(printf, 1, 2))) lib_warning(char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lib_vmsg(fmt, ap);
	va_end(ap);
}

/* Set "PARAM=VALUE" as lspci's -O does; dies on an unknown PARAM. */
static void set_param(char *arg)
{
	char *eq = strchr(arg, '='), name[64];
	size_t len = eq ? (size_t)(eq - arg) : 0;

	if (!eq || !len || len >= sizeof(name))
		die("-O '%s': expected PARAM=VALUE", arg);
	memcpy(name, arg, len);
	name[len] = '\0';
	if (pci_set_param(pacc, name, eq + 1))
		die("-O '%s': unknown parameter '%s' (see lspci -O help)", arg, name);
}

/* Ready libpci: sysfs access under --sysfs, -n, -i and -O as given. */
void lib_init(const struct opts *o)
{
	char path[PATH_MAX];
	int i;

	pacc = pci_alloc();
	pacc->error = lib_error;
	pacc->warning = lib_warning;
	pacc->method = PCI_ACCESS_SYS_BUS_PCI;
	pacc->numeric_ids = o->numeric;
	snprintf(path, sizeof(path), "%s/bus/pci", o->sysfs);
	pci_set_param(pacc, "sysfs.path", path);
	if (o->pci_ids)
		pci_set_name_list_path(pacc, (char *)o->pci_ids, 0);
	for (i = 0; i < o->nparams; i++)
		set_param(o->params[i]);
	pci_init(pacc);
}

void lib_cleanup(void)
{
	pci_cleanup(pacc);
}

/*
 * An -s (@slot) or -d filter for @spec. NULL with libpci's words in @err
 * when @spec is not valid.
 */
struct pci_filter *lib_filter(const char *spec, int slot, const char **err)
{
	struct pci_filter *f = malloc(sizeof(*f));
	char *copy = strdup(spec);	/* libpci cuts the string it parses */

	if (!f || !copy)
		die_code(EXIT_IO, "out of memory");
	pci_filter_init(pacc, f);
	*err = slot ? pci_filter_parse_slot(f, copy) : pci_filter_parse_id(f, copy);
	free(copy);
	if (*err) {
		free(f);
		return NULL;
	}
	return f;
}

void lib_filter_free(struct pci_filter *f)
{
	free(f);
}

/*
 * Whether @d passes @f. libpci is handed what sysfs.c read, so it reads
 * nothing itself; an unreadable ID is all ones, as a vanished device reads.
 */
int lib_match(struct pci_filter *f, const struct dev *d)
{
	struct pci_dev *p = pci_get_dev(pacc, d->domain, d->bus, d->devnum, d->func);
	int hit;

	p->vendor_id = d->vendor < 0 ? 0xffff : d->vendor;
	p->device_id = d->device < 0 ? 0xffff : d->device;
	p->device_class = d->class < 0 ? 0xffff : d->class >> 8;
	p->prog_if = d->class < 0 ? 0xff : d->class & 0xff;
	p->known_fields = PCI_FILL_IDENT | PCI_FILL_CLASS | PCI_FILL_CLASS_EXT;
	hit = pci_filter_match(f, p);
	pci_free_dev(p);
	return hit;
}

/*
 * Names as lspci prints them, with as many -n as were given. With a single
 * -n only numbers are wanted. They are formatted here as lspci -n prints
 * them: libpci would first look each ID up anyway (and, where udev's hwdb is
 * missing, look for it again at every lookup).
 */
static int numbers_only(void)
{
	return pacc->numeric_ids == 1;
}

const char *lib_class_name(const struct dev *d, char *buf, size_t size)
{
	if (d->class < 0)
		return "?";
	if (numbers_only()) {
		snprintf(buf, size, "%04x", (unsigned int)d->class >> 8);
		return buf;
	}
	return pci_lookup_name(pacc, buf, (int)size, PCI_LOOKUP_CLASS, d->class >> 8);
}

/*
 * The class's name for --json: the subclass's, or the base class's where the
 * database knows only that (libpci then appends the number, " [ffff]", which
 * is cut here: JSON names never carry numbers), or NULL.
 */
const char *lib_json_class_name(const struct dev *d, char *buf, size_t size)
{
	const char *name;
	char code[16];
	size_t len, clen;

	if (d->class < 0)
		return NULL;
	name = pci_lookup_name(pacc, buf, (int)size, PCI_LOOKUP_CLASS | PCI_LOOKUP_NO_NUMBERS,
			       d->class >> 8);
	if (!name)
		return NULL;
	clen = (size_t)snprintf(code, sizeof(code), " [%04x]", (unsigned int)d->class >> 8);
	len = strlen(name);
	if (len <= clen || strcmp(name + len - clen, code))
		return name;
	/* libpci returns @buf or a copy of its own: cut a copy in @buf, never @buf into itself */
	if (len - clen >= size)
		return NULL;
	if (name != buf)
		snprintf(buf, size, "%s", name);
	buf[len - clen] = '\0';
	return buf;
}

/* The device's own name for --json, without the vendor's (lspci -mm's), or NULL. */
const char *lib_json_device_name(const struct dev *d, char *buf, size_t size)
{
	if (d->vendor < 0 || d->device < 0)
		return NULL;
	return pci_lookup_name(pacc, buf, (int)size, PCI_LOOKUP_DEVICE | PCI_LOOKUP_NO_NUMBERS,
			       d->vendor, d->device);
}

const char *lib_vendor_name(const struct dev *d, char *buf, size_t size)
{
	if (d->vendor < 0)
		return NULL;
	return pci_lookup_name(pacc, buf, (int)size, PCI_LOOKUP_VENDOR | PCI_LOOKUP_NO_NUMBERS,
			       d->vendor);
}

/* Vendor and device: the second half of an lspci line. */
const char *lib_device_name(const struct dev *d, char *buf, size_t size)
{
	if (d->vendor < 0 || d->device < 0)
		return "?";
	if (numbers_only()) {
		snprintf(buf, size, "%04x:%04x", (unsigned int)d->vendor, (unsigned int)d->device);
		return buf;
	}
	return pci_lookup_name(pacc, buf, (int)size, PCI_LOOKUP_VENDOR | PCI_LOOKUP_DEVICE,
			       d->vendor, d->device);
}
