// SPDX-License-Identifier: GPL-2.0
/*
 * Printing: aligned columns for people, --json for programs. The JSON keys
 * and the column order are part of mwictl(8) and do not change.
 */
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
	name_class(d->class, r->class, sizeof(r->class));
	name_device(d->vendor, d->device, r->name, sizeof(r->name));
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

static void json_string(const char *s)
{
	if (!s) {
		fputs("null", stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
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

static void json_dev(const struct dev *d, int numeric)
{
	struct row r;

	fill_row(d, &r);
	fputs("{\"slot\": ", stdout);
	json_string(d->slot);
	fputs(", ", stdout);
	json_hex("class", d->class < 0 ? -1 : d->class >> 8, 4);
	fputs(", \"class_name\": ", stdout);
	json_string(numeric || d->class < 0 ? NULL : r.class);
	fputs(", ", stdout);
	json_hex("vendor", d->vendor, 4);
	fputs(", ", stdout);
	json_hex("device", d->device, 4);
	fputs(", \"device_name\": ", stdout);
	json_string(numeric || d->vendor < 0 || d->device < 0 ? NULL : r.name);
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
	if (d->cls_bytes < 0)
		fputs("null", stdout);
	else
		printf("%d", d->cls_bytes);
}

static void json_diag(const struct mwi_diag *g)
{
	fputs(", \"diag\": ", stdout);
	if (!g->valid) {
		fputs("null", stdout);
		return;
	}
	printf("{\"requests\": %lu, \"refused\": %lu, \"errors\": %lu, \"clears\": %lu, "
	       "\"last_result\": ", g->requests, g->refused, g->errors, g->clears);
	json_string(g->last);
	fputs(", \"last_requester\": ", stdout);
	json_string(g->requester);
	putchar('}');
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
		fputs("[", stdout);
		for (i = 0; i < n; i++) {
			fputs(i ? ",\n " : "\n ", stdout);
			json_dev(&devs[i], numeric);
			putchar('}');
		}
		fputs(n ? "\n]\n" : "]\n", stdout);
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

/* Everything known about one device. */
void print_show(const struct dev *d, int json, int numeric)
{
	const struct mwi_diag *g = &d->diag;
	struct row r;

	if (json) {
		json_dev(d, numeric);
		json_diag(g);
		fputs("}\n", stdout);
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
	printf("mwi source:      %s\n", d->source == MWI_FROM_SYSFS ? "sysfs mwi attribute" :
	       d->source == MWI_FROM_CONFIG ?
	       "config space (the kernel has no mwi attribute)" :
	       d->source == MWI_NOT_POSSIBLE ? "none (the kernel hides mwi here)" : "-");
	printf("cache line size: %s%s\n", r.cls, d->cls_bytes < 0 ? "" : " bytes");
	if (!g->valid) {
		printf("diagnostics:     not available\n");
		return;
	}
	printf("requests:        %lu\n", g->requests);
	printf("refused:         %lu\n", g->refused);
	printf("errors:          %lu\n", g->errors);
	printf("clears:          %lu\n", g->clears);
	printf("last result:     %s\n", g->last);
	printf("last requester:  %s\n", g->requester);
}
