// SPDX-License-Identifier: GPL-2.0
/*
 * What libpci already does, from libpci: the list of functions
 * (pci_scan_bus()), their IDs, class, revision and driver (pci_fill_info()),
 * vendor, device and class names (the distribution's pci.ids, pci.ids.gz,
 * udev's hwdb; -n and -nn as lspci prints them) and lspci's -s and -d
 * filters, and config space (config.c says what the registers mean) by
 * whichever access method -A or -F chose. What libpci does not know, the
 * kernel's mwi attribute, is sysfs.c's.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pci/pci.h>

#include "mwictl.h"

static struct pci_access *pacc;

/* libpci's fatal errors, e.g. a pci.ids it cannot parse. */
static void __attribute__((format(printf, 1, 2), noreturn)) lib_error(char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	die_vcode(EXIT_IO, fmt, ap);
}

static int quiet;

/*
 * While a config register is read: libpci warns instead of failing (it
 * cannot open the config file, a read fails) and returns all ones; the
 * errno of its first warning is kept here, and the register reads as
 * unreadable with that reason.
 */
static int capturing, captured;

/* libpci's warnings, silenced by -q as mwictl's own are. */
static void __attribute__((format(printf, 1, 2))) lib_warning(char *fmt, ...)
{
	int err = errno;
	va_list ap;

	if (capturing) {
		if (!captured)
			captured = err ? err : EIO;
		return;
	}
	if (quiet)
		return;
	va_start(ap, fmt);
	fputs("mwictl: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/*
 * Set "PARAM=VALUE" as lspci's -O does; dies on an unknown PARAM, and on
 * sysfs.path: the functions must be listed from the tree whose mwi files are
 * read and written, which --sysfs names.
 */
static void set_param(char *arg)
{
	char *eq = strchr(arg, '='), *name;

	if (!eq || eq == arg)
		die("-O '%s': expected PARAM=VALUE", arg);
	name = strndup(arg, (size_t)(eq - arg));
	if (!name)
		die_code(EXIT_IO, "out of memory");
	if (!strcmp(name, "sysfs.path"))
		die("-O '%s': give the sysfs tree with --sysfs DIR", arg);
	if (pci_set_param(pacc, name, eq + 1))
		die("-O '%s': unknown parameter '%s' (see lspci -O help)", arg, name);
	free(name);
}

/* -A help: the access methods this libpci has, as lspci -A help lists them. */
void lib_list_methods(void)
{
	const char *name;
	int i;

	printf("Known PCI access methods:\n\n");
	for (i = 0; (name = pci_get_method_name(i)); i++)
		if (*name)
			printf("%s\n", name);
}

/*
 * The access method of -A (by libpci's name) or -F (a dump); without
 * either, linux-sysfs, the only one with the kernel's mwi attribute. An
 * unknown name is a usage error.
 */
static int access_method(const struct opts *o)
{
	int m;

	if (o->dump)
		return PCI_ACCESS_DUMP;
	if (!o->method)
		return PCI_ACCESS_SYS_BUS_PCI;
	m = pci_lookup_method((char *)o->method);
	if (m < 0)
		die("-A '%s': unknown access method (mwictl -A help lists them)", o->method);
	return m;
}

/*
 * Ready libpci: its access method (sysfs under --sysfs unless -A or -F
 * says otherwise), -n, -i and -O as given.
 */
void lib_init(const struct opts *o)
{
	char path[PATH_MAX];
	int i;

	quiet = o->quiet;
	pacc = pci_alloc();
	pacc->error = lib_error;
	pacc->warning = lib_warning;
	pacc->method = access_method(o);
	pacc->numeric_ids = o->numeric;
	snprintf(path, sizeof(path), "%s/bus/pci", o->sysfs);
	pci_set_param(pacc, "sysfs.path", path);
	if (o->pci_ids)
		pci_set_name_list_path(pacc, (char *)o->pci_ids, 0);
	/* as lspci: -F is -O dump.name=FILE, where it stands among the -O */
	for (i = 0; i <= o->nparams; i++) {
		if (o->dump && i == o->dump_at)
			pci_set_param(pacc, "dump.name", (char *)o->dump);
		if (i < o->nparams)
			set_param(o->params[i]);
	}
	pci_init(pacc);
}

/*
 * Whether the functions come from the kernel's sysfs, where the mwi
 * attribute lives: the linux-sysfs method, given or chosen by -A auto.
 */
int lib_kernel_attrs(void)
{
	return pacc->method == PCI_ACCESS_SYS_BUS_PCI;
}

/* The access method's name, as -A takes it. */
const char *lib_method_name(void)
{
	return pci_get_method_name(pacc->method);
}

/*
 * A config register of @width 1 or 2 bytes at @pos, through libpci: its
 * value, or -errno when libpci could not read it (the errno of its warning)
 * or it reads as all ones, what a failed config read returns (the kernel's
 * PCI_POSSIBLE_ERROR(): no COMMAND or cache line size is all ones).
 */
static int read_config(struct dev *d, int pos, int width)
{
	unsigned int v, ones = width == 1 ? 0xff : 0xffff;

	capturing = 1;
	captured = 0;
	v = width == 1 ? pci_read_byte(d->p, pos) : pci_read_word(d->p, pos);
	capturing = 0;
	if (captured)
		return -captured;
	return v == ones ? -EIO : (int)v;
}

int lib_config_byte(struct dev *d, int pos)
{
	return read_config(d, pos, 1);
}

int lib_config_word(struct dev *d, int pos)
{
	return read_config(d, pos, 2);
}

/*
 * Whether @d has the capability @id in its list (libpci's walk of config
 * space, PCI_FILL_CAPS); 0 when it cannot be read.
 */
int lib_has_cap(struct dev *d, unsigned int id)
{
	int found;

	capturing = 1;
	captured = 0;
	pci_fill_info(d->p, PCI_FILL_CAPS);
	found = pci_find_cap(d->p, id, PCI_CAP_NORMAL) != NULL;
	capturing = 0;
	return found;
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

/* Whether @d passes @f, as lspci decides it. */
int lib_match(struct pci_filter *f, struct dev *d)
{
	return pci_filter_match(f, d->p);
}

/* lspci's order: domain, bus, device, function, from libpci's own fields. */
static int dev_cmp(const void *a, const void *b)
{
	const struct pci_dev *x = ((const struct dev *)a)->p, *y = ((const struct dev *)b)->p;

	if (x->domain != y->domain)
		return x->domain < y->domain ? -1 : 1;
	if (x->bus != y->bus)
		return x->bus - y->bus;
	if (x->dev != y->dev)
		return x->dev - y->dev;
	return x->func - y->func;
}

/*
 * Every function libpci finds (with linux-sysfs, under @root/bus/pci/devices),
 * sorted as lspci sorts them, with only their addresses known: lib_fill()
 * reads the rest for the functions a command needs. 0, or -errno when the
 * sysfs directory is not there (libpci itself stops mwictl, with its message
 * and exit code 6, on a directory it cannot read, an entry that is not a
 * function, or a dump it cannot open).
 */
int lib_scan(const char *root, struct dev **devs, size_t *n)
{
	char path[PATH_MAX];
	struct pci_dev *p;
	struct dev *v;
	size_t cnt = 0;

	if (lib_kernel_attrs()) {
		if ((size_t)snprintf(path, sizeof(path), "%s/bus/pci/devices", root) >=
		    sizeof(path))
			return -ENAMETOOLONG;
		if (access(path, F_OK))
			return -errno;
	}
	pci_scan_bus(pacc);
	for (p = pacc->devices; p; p = p->next)
		cnt++;
	v = calloc(cnt ? cnt : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (p = pacc->devices, cnt = 0; p; p = p->next, cnt++) {
		v[cnt].p = p;
		snprintf(v[cnt].slot, sizeof(v[cnt].slot), "%04x:%02x:%02x.%d",
			 (unsigned int)p->domain, p->bus, p->dev, p->func);
		v[cnt].mwi = v[cnt].cls_bytes = -1;
	}
	qsort(v, cnt, sizeof(*v), dev_cmp);
	*devs = v;
	*n = cnt;
	return 0;
}

/* The driver libpci read for @d into d->driver, "" when none is bound. */
static void copy_driver(struct dev *d)
{
	const char *driver = pci_get_string_property(d->p, PCI_FILL_DRIVER);

	snprintf(d->driver, sizeof(d->driver), "%s", driver ? driver : "");
}

/*
 * IDs, class and driver of @d through pci_fill_info(), and with LIB_EXT the
 * programming interface and revision too (libpci reads one file more per
 * function for them: --json only).
 */
void lib_fill(struct dev *d, unsigned int what)
{
	struct pci_dev *p = d->p;

	pci_fill_info(p, PCI_FILL_IDENT | PCI_FILL_CLASS | PCI_FILL_DRIVER |
		      (what & LIB_EXT ? PCI_FILL_CLASS_EXT : 0));
	d->vendor = p->vendor_id;
	d->device = p->device_id;
	d->class = p->device_class << 8 | (what & LIB_EXT ? p->prog_if : 0);
	d->revision = what & LIB_EXT ? p->rev_id : -1;
	copy_driver(d);
}

/*
 * Only the driver of @d, read again from sysfs with @again: what on and off
 * need. libpci treats a missing driver link as no driver, so a function that
 * has gone since the scan leaves the write to report it (exit 2).
 */
void lib_driver(struct dev *d, int again)
{
	pci_fill_info(d->p, PCI_FILL_DRIVER | (again ? PCI_FILL_RESCAN : 0));
	copy_driver(d);
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
	return pci_lookup_name(pacc, buf, (int)size, PCI_LOOKUP_DEVICE | PCI_LOOKUP_NO_NUMBERS,
			       d->vendor, d->device);
}

const char *lib_vendor_name(const struct dev *d, char *buf, size_t size)
{
	return pci_lookup_name(pacc, buf, (int)size, PCI_LOOKUP_VENDOR | PCI_LOOKUP_NO_NUMBERS,
			       d->vendor);
}

/* Vendor and device: the second half of an lspci line. */
const char *lib_device_name(const struct dev *d, char *buf, size_t size)
{
	if (numbers_only()) {
		snprintf(buf, size, "%04x:%04x", (unsigned int)d->vendor, (unsigned int)d->device);
		return buf;
	}
	return pci_lookup_name(pacc, buf, (int)size, PCI_LOOKUP_VENDOR | PCI_LOOKUP_DEVICE,
			       d->vendor, d->device);
}
