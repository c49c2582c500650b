// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's MWI diagnostics, <debugfs>/pci/mwi, when the file exists
 * and is readable (root only) and has the columns this mwictl knows
 * (series v3: slot possible hw cls policy driver); otherwise why not.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "mwictl.h"

static char table_path[PATH_MAX];

/* The column header of the format parse_diag_row() reads. */
#define TABLE_COLUMNS "slot possible hw cls policy driver"

/* Whether @dir has no entries (or cannot be listed): debugfs is not mounted there. */
static int empty_dir(const char *dir)
{
	struct dirent *e;
	int empty = 1;
	DIR *d = opendir(dir);

	if (!d)
		return 1;
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	return empty;
}

/*
 * Attach each row of the table to the device with the same slot, and note
 * the platform cache line size from its first line. @t says whether the
 * table could be read, and whether its column header is the one parsed:
 * rows of another format are not used.
 */
void diag_read(const char *debugfs, struct dev *devs, size_t n, struct diag_table *t)
{
	char line[512], slot[24];
	struct mwi_diag g;
	size_t i;
	FILE *f;
	int cls;

	t->path = table_path;
	t->platform_cls = -1;
	t->known_format = 0;
	t->err = ENAMETOOLONG;
	if (snprintf(table_path, sizeof(table_path), "%s/pci/mwi", debugfs) >=
	    (int)sizeof(table_path))
		return;
	f = fopen(table_path, "r");
	t->err = f ? 0 : errno;
	t->unmounted = t->err == ENOENT && empty_dir(debugfs);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "# platform cache line size: %d bytes", &cls) == 1) {
			t->platform_cls = cls;
			continue;
		}
		if (!strcmp(line, "# " TABLE_COLUMNS "\n")) {
			t->known_format = 1;
			continue;
		}
		memset(&g, 0, sizeof(g));
		if (!t->known_format || parse_diag_row(line, slot, sizeof(slot), &g))
			continue;
		for (i = 0; i < n; i++) {
			if (!strcmp(devs[i].slot, slot)) {
				devs[i].diag = g;
				break;
			}
		}
	}
	fclose(f);
}

/*
 * Why a device has no diagnostics, for "show": a kernel without the series
 * first, since mounting debugfs would not help it.
 */
const char *diag_missing(const struct diag_table *t, char *buf, size_t size)
{
	if (t->method) {
		snprintf(buf, size, "access method %s reads no kernel table "
			 "(it is read with linux-sysfs only)", t->method);
		return buf;
	}
	if (t->err && t->no_series) {
		snprintf(buf, size, "the running kernel lacks the pci-mwi series "
			 "(no function has the mwi attribute)");
		return buf;
	}
	if (t->unmounted) {
		snprintf(buf, size, "debugfs is not mounted (no %s)", t->path);
		return buf;
	}
	switch (t->err) {
	case 0:
		if (t->known_format)
			snprintf(buf, size, "%s has no row for this function", t->path);
		else
			snprintf(buf, size, "%s has other columns than the \""
				 TABLE_COLUMNS "\" this mwictl reads", t->path);
		break;
	case EACCES:
	case EPERM:
		snprintf(buf, size, "%s is readable by root only", t->path);
		break;
	case ENOENT:
		snprintf(buf, size, "no %s: the running kernel lacks the pci-mwi series "
			 "or CONFIG_DEBUG_FS", t->path);
		break;
	default:
		snprintf(buf, size, "%s: %s", t->path, strerror(t->err));
		break;
	}
	return buf;
}
