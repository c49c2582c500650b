// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for everything mwictl parses that comes from outside:
 * sysfs attribute values, debugfs rows and the command line. The -s and
 * -d specs, config space and -F dumps are libpci's to parse.
 * Build and run with "make -C userspace fuzz" (FUZZ_SECONDS, default 60).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mwictl.h"

#define MAX_ARGS 16

static void fuzz_args(char *text)
{
	char *argv[MAX_ARGS + 2], *tok, *save = NULL, *err = NULL;
	struct opts o;
	int argc = 0;

	argv[argc++] = "mwictl";
	for (tok = strtok_r(text, "\n", &save); tok && argc <= MAX_ARGS;
	     tok = strtok_r(NULL, "\n", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	parse_args(argc, argv, &o, &err);
	free(err);
	free(o.slots);
	free(o.slot_opt);
	free(o.params);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct mwi_diag diag;
	char slot[24];

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';

	parse_mwi_attr(text, size);
	parse_diag_row(text, slot, sizeof(slot), &diag);
	fuzz_args(text);
	free(text);
	return 0;
}
