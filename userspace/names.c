// SPDX-License-Identifier: GPL-2.0
/*
 * Names from pci.ids, worded as lspci words them. The file is read on the
 * first lookup and indexed by its top-level lines (vendors and classes),
 * sorted; a lookup then reads only the lines of one vendor or one class. Without
 * the file every name is the numeric form lspci prints then.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mwictl.h"

#ifndef PCI_IDS
#define PCI_IDS "/usr/share/misc/pci.ids"
#endif

/* A vendor ("8086  Intel Corporation") or class ("C 02  Network controller"). */
struct top {
	unsigned int id;
	const char *line;
	const char *name;
};

static int numeric_only;
static const char *ids_path = PCI_IDS;
static int loaded;
static char *ids;			/* the file, NUL-terminated */
static struct top *tops;
static size_t ntops;

static const char *next_line(const char *p)
{
	const char *nl = strchr(p, '\n');

	return nl ? nl + 1 : p + strlen(p);
}

/*
 * The value of the @digits hex digits at @p if two spaces follow them, and
 * the name after them in @name; -1 otherwise.
 */
static long line_id(const char *p, int digits, const char **name)
{
	unsigned int v = 0;
	int i, c;

	for (i = 0; i < digits; i++) {
		c = p[i];
		if (c >= '0' && c <= '9')
			c -= '0';
		else if (c >= 'a' && c <= 'f')
			c -= 'a' - 10;
		else if (c >= 'A' && c <= 'F')
			c -= 'A' - 10;
		else
			return -1;
		v = v << 4 | (unsigned int)c;
	}
	if (p[digits] != ' ' || p[digits + 1] != ' ')
		return -1;
	*name = p + digits + 2;
	return v;
}

/* Class lines are indexed with this bit set, vendors without it. */
#define TOP_CLASS	0x10000U

static int add_top(unsigned int id, const char *line, const char *name, size_t *cap)
{
	struct top *t;

	if (ntops == *cap) {
		*cap = *cap ? 2 * *cap : 1024;
		t = realloc(tops, *cap * sizeof(*t));
		if (!t)
			return -1;
		tops = t;
	}
	tops[ntops].id = id;
	tops[ntops].line = line;
	tops[ntops++].name = name;
	return 0;
}

static char *read_file(const char *path)
{
	struct stat st;
	char *buf = NULL;
	ssize_t len;
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || st.st_size < 0 || !(buf = malloc((size_t)st.st_size + 1)))
		goto fail;
	while (got < (size_t)st.st_size) {
		len = read(fd, buf + got, (size_t)st.st_size - got);
		if (len <= 0)
			goto fail;
		got += (size_t)len;
	}
	buf[got] = '\0';
	close(fd);
	return buf;
fail:
	free(buf);
	close(fd);
	return NULL;
}

static int top_cmp(const void *a, const void *b)
{
	const struct top *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* Read the file and index its vendors and classes, sorted by ID. */
static void load(void)
{
	const char *p, *name;
	size_t cap = 0;
	int is_class;
	long id;

	loaded = 1;
	ids = read_file(ids_path);
	for (p = ids; p && *p; p = next_line(p)) {
		is_class = p[0] == 'C' && p[1] == ' ';
		id = is_class ? line_id(p + 2, 2, &name) : line_id(p, 4, &name);
		if (id >= 0 &&
		    add_top((unsigned int)id | (is_class ? TOP_CLASS : 0), p, name, &cap))
			break;
	}
	if (ntops)
		qsort(tops, ntops, sizeof(*tops), top_cmp);
}

/* "name" of the line at @name into @buf, without the newline. */
static const char *copy_name(const char *name, char *buf, size_t size)
{
	size_t n = strcspn(name, "\r\n");

	snprintf(buf, size, "%.*s", (int)n, name);
	return buf;
}

/* Vendor or class @id, or NULL. */
static const struct top *find_top(unsigned int id)
{
	struct top key = { .id = id };

	if (!loaded)
		load();
	return ntops ? bsearch(&key, tops, ntops, sizeof(*tops), top_cmp) : NULL;
}

/* The name of child @id (@digits hex digits) under the top-level @line, or NULL. */
static const char *find_child(const char *line, unsigned int id, int digits)
{
	const char *p, *name;

	for (p = next_line(line); *p == '\t' || *p == '#' || *p == '\n'; p = next_line(p))
		if (p[0] == '\t' && p[1] != '\t' && line_id(p + 1, digits, &name) == (long)id)
			return name;
	return NULL;
}

/* -n if @numeric; names from @pci_ids, or the default file if NULL or "". */
void names_init(int numeric, const char *pci_ids)
{
	numeric_only = numeric;
	if (pci_ids && *pci_ids)
		ids_path = pci_ids;
}

void names_cleanup(void)
{
	free(tops);
	free(ids);
	tops = NULL;
	ids = NULL;
	ntops = 0;
	loaded = 0;
}

/* "Ethernet controller", or "0200" with -n, or "?" when unreadable; in @buf. */
const char *name_class(int class, char *buf, size_t size)
{
	unsigned int base = (unsigned int)class >> 16, sub = ((unsigned int)class >> 8) & 0xff;
	const struct top *t;
	const char *subname;
	char tmp[256];

	if (class < 0)
		snprintf(buf, size, "?");
	else if (numeric_only)
		snprintf(buf, size, "%04x", (unsigned int)class >> 8);
	else if (!(t = find_top(base | TOP_CLASS)))
		snprintf(buf, size, "Class %04x", (unsigned int)class >> 8);
	else if ((subname = find_child(t->line, sub, 2)))
		copy_name(subname, buf, size);
	else
		snprintf(buf, size, "%s [%04x]", copy_name(t->name, tmp, sizeof(tmp)),
			 (unsigned int)class >> 8);
	return buf;
}

/* "Intel Corporation 82540EM ...", "8086:100e" with -n, or "?"; in @buf. */
const char *name_device(int vendor, int device, char *buf, size_t size)
{
	const struct top *t;
	const char *devname;
	char v[256], d[256];

	if (vendor < 0 || device < 0)
		snprintf(buf, size, "?");
	else if (numeric_only)
		snprintf(buf, size, "%04x:%04x", (unsigned int)vendor, (unsigned int)device);
	else if (!(t = find_top((unsigned int)vendor)))
		snprintf(buf, size, "Device %04x:%04x", (unsigned int)vendor, (unsigned int)device);
	else {
		copy_name(t->name, v, sizeof(v));
		devname = find_child(t->line, (unsigned int)device, 4);
		if (devname)
			snprintf(buf, size, "%s %s", v, copy_name(devname, d, sizeof(d)));
		else
			snprintf(buf, size, "%s Device %04x", v, (unsigned int)device);
	}
	return buf;
}
