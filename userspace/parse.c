// SPDX-License-Identifier: GPL-2.0
/*
 * Parsers for what the kernel exposes in sysfs and debugfs. No I/O here:
 * every function takes a buffer, so the fuzz target can call them all.
 * Config space is libpci's to read (config.c).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mwictl.h"

/* The mwi attribute: "0\n" or "1\n". Returns 0, 1, or -1 for garbage. */
int parse_mwi_attr(const char *buf, size_t len)
{
	if (len == 2 && buf[1] == '\n' && (buf[0] == '0' || buf[0] == '1'))
		return buf[0] - '0';
	return -1;
}

/* "?", "d3cold", "suspended" (not read): -1; otherwise bytes, 0 to 1020; -2 for garbage. */
static int parse_cls_field(const char *cls)
{
	char *end;
	long bytes;

	if (!strcmp(cls, "?") || !strcmp(cls, "d3cold") || !strcmp(cls, "suspended"))
		return -1;
	bytes = strtol(cls, &end, 10);
	if (!isdigit((unsigned char)cls[0]) || *end || bytes > 1020)
		return -2;
	return (int)bytes;
}

/*
 * One row of <debugfs>/pci/mwi (Documentation/ABI/testing/debugfs-pci-mwi):
 * "SLOT POSSIBLE HW CLS POLICY DRIVER", POSSIBLE "yes" or "no", CLS a
 * number of bytes, "?", "d3cold" or "suspended", DRIVER a name or "-".
 * Returns 0, or -1
 * for a header, a comment or garbage.
 */
int parse_diag_row(const char *line, char *slot, size_t slotsz, struct mwi_diag *diag)
{
	char s[24], possible[4], hw[12], cls[12], policy[16], driver[64];
	int n = 0, bytes;

	if (sscanf(line, "%23s %3s %11s %11s %15s %63s %n", s, possible, hw, cls,
		   policy, driver, &n) != 6 || !n || line[n] ||
	    strlen(s) >= slotsz || !isxdigit((unsigned char)s[0]))
		return -1;
	if (strcmp(possible, "yes") && strcmp(possible, "no"))
		return -1;
	bytes = parse_cls_field(cls);
	if (bytes < -1)
		return -1;
	strcpy(slot, s);
	diag->possible = !strcmp(possible, "yes");
	strcpy(diag->hw, hw);
	diag->cls_bytes = bytes;
	strcpy(diag->policy, policy);
	strcpy(diag->driver, strcmp(driver, "-") ? driver : "");
	diag->valid = 1;
	return 0;
}
