// SPDX-License-Identifier: GPL-2.0
/*
 * Command line: getopt_long, lspci's letters. Never exits, so the fuzz
 * target can call it; main() turns an error into exit code 1.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mwictl.h"

static const char *const commands[] = { "list", "show", "get", "on", "off" };

static const struct option longopts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "sysfs", required_argument, NULL, 'S' },
	{ "debugfs", required_argument, NULL, 'D' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

void usage(void)
{
	fputs("Usage: mwictl [list] [-s SLOT] [-d VENDOR:DEVICE] [-n] [--json]\n"
	      "       mwictl show SLOT [--json]\n"
	      "       mwictl get SLOT\n"
	      "       mwictl on|off SLOT...\n"
	      "       mwictl on|off -d VENDOR:DEVICE\n"
	      "\n"
	      "Inspect and control PCI Memory-Write-and-Invalidate through the\n"
	      "kernel's verified path (/sys/bus/pci/devices/*/mwi).\n"
	      "\n"
	      "Options:\n"
	      "  -s [[[[DOMAIN]:]BUS]:][DEV][.[FUNC]]  select functions (lspci syntax)\n"
	      "  -d [VENDOR]:[DEVICE]                  select by ID (lspci syntax)\n"
	      "  -n                 show numeric IDs instead of names\n"
	      "  --json             machine-readable output (list, show)\n"
	      "  --sysfs DIR        read sysfs from DIR instead of /sys ($MWICTL_SYSFS)\n"
	      "  --debugfs DIR      read debugfs from DIR ($MWICTL_DEBUGFS;\n"
	      "                     default: DIR/kernel/debug of --sysfs)\n"
	      "  -h, --help         this text\n"
	      "  -V, --version      print the version\n"
	      "\n"
	      "Exit status:\n"
	      "  0 success                    4 permission denied\n"
	      "  1 usage error or bad input   5 the kernel has no mwi attribute\n"
	      "  2 no such device             6 other I/O error\n"
	      "  3 the device refused MWI\n"
	      "With several devices, the highest status wins.\n", stdout);
}

static int add_slot(struct opts *o, char *slot)
{
	char **v = realloc(o->slots, (size_t)(o->nslots + 1) * sizeof(*v));

	if (!v)
		return -1;
	o->slots = v;
	o->slots[o->nslots++] = slot;
	return 0;
}

static int is_command(const char *word)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(word, commands[i]))
			return 1;
	return 0;
}

/* Check that the options fit the command. 0, or -1 with @err set. */
static int check_command(const struct opts *o, char *err, size_t errsz)
{
	const char *c = o->command;

	if (!strcmp(c, "list")) {
		if (o->nslots > 1)
			snprintf(err, errsz, "list: takes at most one -s SLOT");
		return o->nslots > 1 ? -1 : 0;
	}
	if (o->json && strcmp(c, "show")) {
		snprintf(err, errsz, "%s: --json is for list and show", c);
		return -1;
	}
	if (!strcmp(c, "show") || !strcmp(c, "get")) {
		if (o->nslots == 1 && !o->id)
			return 0;
		snprintf(err, errsz, "%s: needs exactly one SLOT", c);
		return -1;
	}
	if (!o->nslots && !o->id) {
		snprintf(err, errsz, "%s: needs SLOT... or -d VENDOR:DEVICE", c);
		return -1;
	}
	return 0;
}

/* Fill @o from argv. 0 on success, -1 with a message in @err. */
int parse_args(int argc, char **argv, struct opts *o, char *err, size_t errsz)
{
	int c, i;

	memset(o, 0, sizeof(*o));
	o->sysfs = getenv("MWICTL_SYSFS");
	o->debugfs = getenv("MWICTL_DEBUGFS");
	o->pci_ids = getenv("MWICTL_PCI_IDS");
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "s:d:njhV", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (add_slot(o, optarg))
				goto nomem;
			break;
		case 'd':
			if (o->id) {
				snprintf(err, errsz, "-d given twice");
				return -1;
			}
			o->id = optarg;
			break;
		case 'n':
			o->numeric = 1;
			break;
		case 'j':
			o->json = 1;
			break;
		case 'S':
			o->sysfs = optarg;
			break;
		case 'D':
			o->debugfs = optarg;
			break;
		case 'h':
			o->help = 1;
			return 0;
		case 'V':
			o->version = 1;
			return 0;
		default:
			if (optopt && strchr("sd", optopt))
				snprintf(err, errsz, "option -%c needs an argument", optopt);
			else if (optopt)
				snprintf(err, errsz, "unknown option -%c", optopt);
			else
				snprintf(err, errsz, "unknown option %s", argv[optind - 1]);
			return -1;
		}
	}
	o->command = "list";
	i = optind;
	if (i < argc) {
		if (!is_command(argv[i])) {
			snprintf(err, errsz, "unknown command '%s'", argv[i]);
			return -1;
		}
		o->command = argv[i++];
	}
	for (; i < argc; i++) {
		if (!strcmp(o->command, "list")) {
			snprintf(err, errsz, "list: unexpected argument '%s' (use -s SLOT)", argv[i]);
			return -1;
		}
		if (add_slot(o, argv[i]))
			goto nomem;
	}
	if (!o->sysfs || !*o->sysfs)
		o->sysfs = "/sys";
	return check_command(o, err, errsz);
nomem:
	snprintf(err, errsz, "out of memory");
	return -1;
}
