// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's MWI diagnostics, <debugfs>/pci/mwi, when the file exists
 * and is readable (root only). Absent diagnostics are not an error.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "mwictl.h"

/* Attach each row of the table to the device with the same slot. */
void diag_read(const char *debugfs, struct dev *devs, size_t n)
{
	char path[PATH_MAX], line[512], slot[24];
	struct mwi_diag g;
	size_t i;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/pci/mwi", debugfs) >= (int)sizeof(path))
		return;
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		memset(&g, 0, sizeof(g));
		if (parse_diag_row(line, slot, sizeof(slot), &g))
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
