// SPDX-License-Identifier: GPL-2.0
/*
 * Printing: aligned columns for people, --json for programs. The JSON keys
 * and the column order are part of mwictl(8) and do not change.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mwictl.h"

#define NAME_MAX_LEN 256

struct row {
	char class[NAME_MAX_LEN];
	char name[NAME_MAX_LEN];
	char mwi[80];
	char cls[16];
};

/* "on", "off", or "?" when the state could not be read. */
const char *mwi_word(const struct dev *d)
{
	return d->mwi < 0 ? "?" : d->mwi ? "on" : "off";
}

static void fill_row(const struct dev *d, struct row *r)
{
	char buf[NAME_MAX_LEN];

	/* libpci returns either @buf or its own copy of a name */
	snprintf(r->class, sizeof(r->class), "%s", lib_class_name(d, buf, sizeof(buf)));
	snprintf(r->name, sizeof(r->name), "%s", lib_device_name(d, buf, sizeof(buf)));
	if (d->source == MWI_NOT_POSSIBLE)
		snprintf(r->mwi, sizeof(r->mwi), "n/a");
	else if (d->mwi < 0)
		snprintf(r->mwi, sizeof(r->mwi), "? (%s)", strerror(d->mwi_errno));
	else
		snprintf(r->mwi, sizeof(r->mwi), "%s", mwi_word(d));
	if (d->cls_bytes < 0)
		snprintf(r->cls, sizeof(r->cls), "?");
	else
		snprintf(r->cls, sizeof(r->cls), "%d", d->cls_bytes);
}

/*
 * The length of the well-formed UTF-8 sequence at @s (RFC 3629: no overlong
 * forms, surrogates or code points above U+10FFFF), or 0.
 */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	for (i = 1; i < n; i++, lo = 0x80, hi = 0xbf)
		if (s[i] < lo || s[i] > hi)
			return 0;
	return n;
}

/* A JSON string; each byte that is not part of valid UTF-8 becomes \ufffd. */
static void json_string(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len;

	if (!s) {
		fputs("null", stdout);
		return;
	}
	putchar('"');
	for (; *s; s += len ? len : 1) {
		len = utf8_len(s);
		if (!len)
			fputs("\\ufffd", stdout);
		else if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if (*s < 0x20)
			printf("\\u%04x", *s);
		else
			fwrite(s, 1, len, stdout);
	}
	putchar('"');
}

static void json_int(int val)
{
	if (val < 0)
		fputs("null", stdout);
	else
		printf("%d", val);
}

static void json_hex(const char *key, int val, int digits)
{
	printf("\"%s\": ", key);
	if (val < 0)
		fputs("null", stdout);
	else
		printf("\"%0*x\"", digits, (unsigned int)val);
}

static const char *source_word(const struct dev *d)
{
	switch (d->source) {
	case MWI_FROM_SYSFS:
		return "sysfs";
	case MWI_FROM_CONFIG:
		return "config";
	case MWI_NOT_POSSIBLE:
		return "none";
	default:
		return NULL;
	}
}

static void json_bool(const char *key, int val)
{
	printf(", \"%s\": %s", key, val ? "true" : "false");
}

/*
 * One function's keys, without the closing brace (show adds its own). The
 * IDs are always there; the names too, but with a single -n.
 */
static void json_dev(const struct dev *d, int numeric)
{
	char buf[NAME_MAX_LEN];
	int names = numeric != 1;

	fputs("{\"slot\": ", stdout);
	json_string(d->slot);
	fputs(", ", stdout);
	json_hex("class", d->class >> 8, 4);
	fputs(", \"class_name\": ", stdout);
	json_string(names ? lib_json_class_name(d, buf, sizeof(buf)) : NULL);
	fputs(", ", stdout);
	json_hex("prog_if", d->class & 0xff, 2);
	fputs(", ", stdout);
	json_hex("vendor", d->vendor, 4);
	fputs(", \"vendor_name\": ", stdout);
	json_string(names ? lib_vendor_name(d, buf, sizeof(buf)) : NULL);
	fputs(", ", stdout);
	json_hex("device", d->device, 4);
	fputs(", \"device_name\": ", stdout);
	json_string(names ? lib_json_device_name(d, buf, sizeof(buf)) : NULL);
	fputs(", ", stdout);
	json_hex("revision", d->revision, 2);
	if (d->pcie < 0)
		fputs(", \"pcie\": null", stdout);
	else
		json_bool("pcie", d->pcie);
	fputs(", \"driver\": ", stdout);
	json_string(d->driver[0] ? d->driver : NULL);
	fputs(", \"mwi\": ", stdout);
	json_string(d->mwi < 0 ? NULL : mwi_word(d));
	fputs(", \"mwi_source\": ", stdout);
	json_string(source_word(d));
	fputs(", \"mwi_error\": ", stdout);
	json_string(d->source == MWI_NOT_POSSIBLE ? NULL :
		    d->mwi < 0 ? strerror(d->mwi_errno) : NULL);
	fputs(", \"mwi_unavailable\": ", stdout);
	json_string(d->source == MWI_NOT_POSSIBLE ? d->na_reason : NULL);
	fputs(", \"cache_line_size\": ", stdout);
	json_int(d->cls_bytes);
}

/* show's diagnostics: an object, or null and why. */
static void json_diag(const struct mwi_diag *g, const struct diag_table *t)
{
	char why[PATH_MAX + 256];

	fputs(", \"platform_cache_line_size\": ", stdout);
	json_int(t->platform_cls);
	fputs(", \"diag\": ", stdout);
	if (g->valid) {
		printf("{\"possible\": %s, \"hw\": ", g->possible ? "true" : "false");
		json_string(g->hw);
		fputs(", \"cache_line_size\": ", stdout);
		json_int(g->cls_bytes);
		fputs(", \"policy\": ", stdout);
		json_string(g->policy);
		fputs(", \"driver\": ", stdout);
		json_string(g->driver[0] ? g->driver : NULL);
		putchar('}');
	} else {
		fputs("null", stdout);
	}
	fputs(", \"diag_unavailable\": ", stdout);
	json_string(g->valid ? NULL : diag_missing(t, why, sizeof(why)));
}

/* The --json document: a version and the devices. */
static void json_begin(void)
{
	printf("{\"version\": %d, \"devices\": [", MWICTL_JSON_VERSION);
}

static int max(int a, int b)
{
	return a > b ? a : b;
}

/* One aligned line per device, or a JSON array. */
void print_list(const struct dev *devs, size_t n, int json, int numeric)
{
	int w[4] = { 4, 5, 6, 3 };	/* SLOT CLASS DRIVER MWI */
	struct row *rows;
	size_t i;

	if (json) {
		json_begin();
		for (i = 0; i < n; i++) {
			fputs(i ? ",\n  " : "\n  ", stdout);
			json_dev(&devs[i], numeric);
			putchar('}');
		}
		fputs(n ? "\n]}\n" : "]}\n", stdout);
		return;
	}
	rows = calloc(n ? n : 1, sizeof(*rows));
	if (!rows)
		die("out of memory");
	for (i = 0; i < n; i++) {
		fill_row(&devs[i], &rows[i]);
		w[0] = max(w[0], (int)strlen(devs[i].slot));
		w[1] = max(w[1], (int)strlen(rows[i].class));
		w[2] = max(w[2], (int)strlen(devs[i].driver[0] ? devs[i].driver : "-"));
		w[3] = max(w[3], (int)strlen(rows[i].mwi));
	}
	printf("%-*s  %-*s  %-*s  %-*s  %4s  %s\n", w[0], "SLOT", w[1], "CLASS",
	       w[2], "DRIVER", w[3], "MWI", "CLS", "DEVICE");
	for (i = 0; i < n; i++)
		printf("%-*s  %-*s  %-*s  %-*s  %4s  %s\n", w[0], devs[i].slot,
		       w[1], rows[i].class, w[2], devs[i].driver[0] ? devs[i].driver : "-",
		       w[3], rows[i].mwi, rows[i].cls, rows[i].name);
	free(rows);
}

/* The policy column in words: whether drivers may turn MWI on. */
static const char *policy_words(const char *policy)
{
	if (!strcmp(policy, "drivers"))
		return "drivers choose";
	if (!strcmp(policy, "off"))
		return "off (drivers get no MWI)";
	return policy;
}

/* Everything known about one device. */
void print_show(const struct dev *d, const struct diag_table *t, int json, int numeric)
{
	const struct mwi_diag *g = &d->diag;
	char why[PATH_MAX + 256];
	struct row r;

	if (json) {
		json_begin();
		fputs("\n  ", stdout);
		json_dev(d, numeric);
		json_diag(g, t);
		fputs("}\n]}\n", stdout);
		return;
	}
	fill_row(d, &r);
	printf("slot:            %s\n", d->slot);
	printf("class:           %s\n", r.class);
	printf("device:          %s\n", r.name);
	printf("driver:          %s\n", d->driver[0] ? d->driver : "-");
	if (d->source == MWI_NOT_POSSIBLE)
		printf("mwi:             n/a (%s: the MWI bit is hardwired to 0)\n",
		       d->na_reason);
	else
		printf("mwi:             %s\n", r.mwi);
	if (!lib_kernel_attrs())
		printf("mwi source:      config space (access method %s)\n", lib_method_name());
	else
		printf("mwi source:      %s\n", d->source == MWI_FROM_SYSFS ?
		       "sysfs mwi attribute" : d->source == MWI_FROM_CONFIG ?
		       "config space (the kernel has no mwi attribute)" :
		       d->source == MWI_NOT_POSSIBLE ? "none (the kernel hides mwi here)" : "-");
	printf("cache line size: %s%s\n", r.cls, d->cls_bytes < 0 ? "" : " bytes");
	if (t->platform_cls >= 0)
		printf("platform cls:    %d bytes\n", t->platform_cls);
	else
		printf("platform cls:    unknown (from the diagnostics)\n");
	if (!g->valid) {
		printf("diagnostics:     not available: %s\n", diag_missing(t, why, sizeof(why)));
		return;
	}
	printf("policy:          %s\n", policy_words(g->policy));
}
