// SPDX-License-Identifier: GPL-2.0
/*
 * lspci's -s and -d: the syntax and error messages of pciutils 3.9, parsed
 * here (mwictl is linked statically and does not use libpci), matched
 * against what sysfs said. A field that is absent, empty or "*" matches
 * anything; the host tests compare every selection with lspci's own.
 *
 *   -s [[[domain]:][bus]:][device][.[function]]
 *   -d [vendor]:[device][:class[:prog-if]]   (x in the class: any digit)
 */
#include <stdio.h>
#include <string.h>

#include "mwictl.h"

#define SPEC_MAX	64	/* lspci's limit, with the terminating NUL */

/*
 * Split @str in place at @sep into at most @max fields; the missing ones
 * are NULL. NULL, or the error message when there are more.
 */
static const char *split(char *str, int sep, char **fields, int max)
{
	int i = 0;

	for (;;) {
		if (i == max)
			return "Too many fields";
		fields[i++] = str;
		str = strchr(str, sep);
		if (!str)
			break;
		*str++ = '\0';
	}
	while (i < max)
		fields[i++] = NULL;
	return NULL;
}

static int hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * One hex field into @val, at most @max. With @mask, an x stands for any
 * digit and @mask keeps the digits that were given. A field that is NULL,
 * empty or "*" leaves @val (and @mask) alone. 0 if the field is bad.
 */
static int hex_field(const char *s, int *val, unsigned int *mask, unsigned int max)
{
	unsigned int v = 0, m = ~0U, biggest = 0;
	int d;

	if (!s || !*s || !strcmp(s, "*"))
		return 1;
	for (; *s; s++) {
		if (mask && (*s == 'x' || *s == 'X')) {
			v <<= 4;
			m <<= 4;
			biggest = biggest << 4 | 1;
		} else {
			d = hex_digit(*s);
			if (d < 0)
				return 0;
			v = v << 4 | (unsigned int)d;
			m = m << 4 | 0xf;
			biggest = biggest << 4 | (unsigned int)d;
		}
		if (biggest > max)
			return 0;
	}
	*val = (int)v;
	if (mask)
		*mask = m;
	return 1;
}

static const char *parse_slot(struct mwi_filter *f, char *spec)
{
	char *fields[3], *devfn[2];
	const char *err = split(spec, ':', fields, 3);
	int i = 0;

	if (err)
		return err;
	if (fields[2] && !hex_field(fields[i++], &f->domain, NULL, 0x7fffffff))
		return "Invalid domain number";
	if (fields[i + 1] && !hex_field(fields[i++], &f->bus, NULL, 0xff))
		return "Invalid bus number";
	if (!fields[i][0] || !strcmp(fields[i], "*"))
		return NULL;
	if (split(fields[i], '.', devfn, 2))
		return "Invalid slot/function number";
	if (!hex_field(devfn[0], &f->slot, NULL, 0x1f))
		return "Invalid slot number";
	if (!hex_field(devfn[1], &f->func, NULL, 7))
		return "Invalid function number";
	return NULL;
}

static const char *parse_id(struct mwi_filter *f, char *spec)
{
	char *fields[4];
	const char *err = split(spec, ':', fields, 4);

	if (err)
		return err;
	if (!fields[1])
		return "At least two fields must be given";
	if (!hex_field(fields[0], &f->vendor, NULL, 0xffff))
		return "Invalid vendor ID";
	if (!hex_field(fields[1], &f->device, NULL, 0xffff))
		return "Invalid device ID";
	if (!hex_field(fields[2], &f->class, &f->class_mask, 0xffff))
		return "Invalid class code";
	if (!hex_field(fields[3], &f->prog_if, NULL, 0xff))
		return "Invalid programming interface code";
	return NULL;
}

/* Parse -s (@slot != 0) or -d @spec into @f. 0, or -1 with @err set. */
int filter_parse(struct mwi_filter *f, const char *spec, int slot, char *err, size_t errsz)
{
	char copy[SPEC_MAX];
	const char *msg;

	f->domain = f->bus = f->slot = f->func = -1;
	f->vendor = f->device = f->class = f->prog_if = -1;
	f->class_mask = ~0U;
	if (strlen(spec) >= sizeof(copy))
		msg = "Expression too long";
	else {
		strcpy(copy, spec);
		msg = slot ? parse_slot(f, copy) : parse_id(f, copy);
	}
	if (msg)
		snprintf(err, errsz, "-%c %s: %s", slot ? 's' : 'd', spec, msg);
	return msg ? -1 : 0;
}

static int field_match(int want, int have)
{
	return want < 0 || want == have;
}

/* 1 if @d passes @f, else 0. An unreadable ID or class matches only "any". */
int filter_match(const struct mwi_filter *f, const struct dev *d)
{
	if (!field_match(f->domain, d->domain) || !field_match(f->bus, d->bus) ||
	    !field_match(f->slot, d->devnum) || !field_match(f->func, d->func) ||
	    !field_match(f->vendor, d->vendor) || !field_match(f->device, d->device))
		return 0;
	if (f->class >= 0 &&
	    (d->class < 0 ||
	     (((unsigned int)d->class >> 8) ^ (unsigned int)f->class) & f->class_mask))
		return 0;
	return f->prog_if < 0 || (d->class >= 0 && (d->class & 0xff) == f->prog_if);
}
