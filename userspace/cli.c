// SPDX-License-Identifier: GPL-2.0
/*
 * Command line: getopt_long, lspci's letters. Never exits, so the fuzz
 * target can call it; main() turns an error into exit code 1.
 */
#define _GNU_SOURCE		/* vasprintf */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mwictl.h"

static const char *const commands[] = { "list", "show", "get", "on", "off", "rule" };

/* Options without a letter. */
enum { OPT_JSON = 256, OPT_SYSFS, OPT_DEBUGFS, OPT_DRY_RUN, OPT_REBIND, OPT_FORCE, OPT_YES };

static const struct option longopts[] = {
	{ "json", no_argument, NULL, OPT_JSON },
	{ "sysfs", required_argument, NULL, OPT_SYSFS },
	{ "debugfs", required_argument, NULL, OPT_DEBUGFS },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "rebind", no_argument, NULL, OPT_REBIND },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "yes", no_argument, NULL, OPT_YES },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

void usage(void)
{
	fputs("Usage: mwictl [list] [-s SLOT] [-d ID] [-n] [--json]\n"
	      "       mwictl show SLOT|-d ID [--json]\n"
	      "       mwictl get SLOT|-d ID\n"
	      "       mwictl on|off [-q] [--dry-run] [--rebind [--force] [--yes]] SLOT...|-d ID\n"
	      "       mwictl rule [on|off] SLOT...|-d ID\n"
	      "\n"
	      "Inspect and control PCI Memory-Write-and-Invalidate through the\n"
	      "kernel's verified path (/sys/bus/pci/devices/*/mwi).\n"
	      "\n"
	      "Options:\n"
	      "  -s [[[[DOMAIN]:]BUS]:][DEV][.[FUNC]]  select functions (as lspci)\n"
	      "  -d [VENDOR]:[DEVICE][:CLASS[:PROG-IF]] select by ID (as lspci)\n"
	      "  -n                 numeric IDs; -nn: names and numbers\n"
	      "  -i FILE            take names from FILE instead of libpci's pci.ids\n"
	      "  -O PARAM=VALUE     set a libpci parameter (lspci -O help lists them)\n"
	      "  -A METHOD          list, show, get, rule: libpci's access method\n"
	      "                     METHOD (-A help lists them); state from config space\n"
	      "  -F FILE            list, show, get, rule: read an lspci -x or -xxx dump\n"
	      "  --json             machine-readable output (list, show)\n"
	      "  -q, --quiet        no warnings; on, off: print only errors\n"
	      "  --dry-run          on, off: say what would change, change nothing\n"
	      "  --rebind           on, off: unbind a bound driver, write, bind it\n"
	      "                     again (the device restarts)\n"
	      "  --force            --rebind even a function with a mounted filesystem,\n"
	      "                     active swap or stacked device on its disks\n"
	      "  --yes              --rebind several functions without asking\n"
	      "  --sysfs DIR        read sysfs from DIR instead of /sys ($MWICTL_SYSFS)\n"
	      "  --debugfs DIR      read debugfs from DIR\n"
	      "                     (default: DIR/kernel/debug of --sysfs)\n"
	      "  -h, --help         this text\n"
	      "  -V, --version      print the version\n"
	      "\n"
	      "Exit status:\n"
	      "  0 success                    4 permission denied\n"
	      "  1 usage error or bad input   5 the kernel has no mwi attribute\n"
	      "  2 no such device             6 other I/O error\n"
	      "  3 the device refused MWI     7 a driver is bound or the function\n"
	      "                                 is in use: nothing changed\n"
	      "The most severe status wins: 6, 4, 5, 2, 3, then 7.\n", stdout);
}

static int add_arg(char ***v, int *n, char *arg)
{
	char **nv = realloc(*v, (size_t)(*n + 1) * sizeof(*nv));

	if (!nv)
		return -1;
	*v = nv;
	nv[(*n)++] = arg;
	return 0;
}

/* Add a slot argument, given with -s (@opt) or as a word. 0 or -1. */
static int add_slot(struct opts *o, char *arg, int opt)
{
	char *nv = realloc(o->slot_opt, (size_t)o->nslots + 1);

	if (!nv)
		return -1;
	o->slot_opt = nv;
	nv[o->nslots] = (char)opt;
	return add_arg(&o->slots, &o->nslots, arg);
}

static int is_command(const char *word)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(word, commands[i]))
			return 1;
	return 0;
}

/* Set *@err to a message of any length (NULL when out of memory); -1. */
static int __attribute__((format(printf, 2, 3))) fail(char **err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(err, fmt, ap) < 0)
		*err = NULL;
	va_end(ap);
	return -1;
}

/*
 * The option as the user typed it, whole, for "%.*s": "--name" (without
 * "=value") for a long one, else "-c" in @letter. @arg is the argv word
 * getopt_long last looked at.
 */
static int typed(const char **name, char letter[3], const char *arg, int c)
{
	if (arg && !strncmp(arg, "--", 2)) {
		*name = arg;
		return (int)strcspn(arg, "=");
	}
	letter[0] = '-';
	letter[1] = (char)c;
	letter[2] = '\0';
	*name = letter;
	return 2;
}

/*
 * The long options starting with the --word @name of @len bytes, for
 * "ambiguous"; @list holds all of them.
 */
static int prefix_matches(const char *name, int len, char *list, size_t size)
{
	size_t used = 0;
	int i, n = 0;

	list[0] = '\0';
	for (i = 0; longopts[i].name; i++) {
		if (strncmp(longopts[i].name, name + 2, (size_t)len - 2))
			continue;
		used += (size_t)snprintf(list + used, used < size ? size - used : 0, "%s--%s",
					 n ? ", " : "", longopts[i].name);
		n++;
	}
	return n;
}

/*
 * The message for a '?' or ':' from getopt_long. A letter that getopt
 * complains about was typed as a letter, except q, h and V: those only
 * fail as --quiet=, --help= or --version= with a value.
 */
static int option_error(int c, char **argv, char **err)
{
	const char *arg = argv[optind - 1], *name;
	char letter[3], list[256];	/* every long option's name fits */
	int len = typed(&name, letter, arg, optopt);

	if (c == ':')
		return fail(err, "option '%.*s' needs a value", len, name);
	if (optopt >= 256 || (optopt && strchr("qhV", optopt)))
		return fail(err, "option '%.*s' takes no value", len, name);
	if (optopt)
		return fail(err, "unknown option '-%c'", optopt);
	if (prefix_matches(name, len, list, sizeof(list)) > 1)
		return fail(err, "option '%.*s' is ambiguous (%s)", len, name, list);
	return fail(err, "unknown option '%.*s'", len, name);
}

/* Check that the options fit the command. 0, or -1 with @err set. */
static int check_command(const struct opts *o, char **err)
{
	const char *c = o->command;
	int set = !strcmp(c, "on") || !strcmp(c, "off");

	if (o->json && strcmp(c, "show") && strcmp(c, "list"))
		return fail(err, "%s: --json is for list and show", c);
	if ((o->dry_run || o->rebind) && !set)
		return fail(err, "%s: %s is for on and off", c,
			    o->dry_run ? "--dry-run" : "--rebind");
	if ((o->force || o->yes) && !o->rebind)
		return fail(err, "%s: %s is for --rebind", c, o->force ? "--force" : "--yes");
	if (set && o->dump)
		return fail(err, "%s: -F reads a dump: MWI changes only through the kernel's "
			    "mwi attribute (access method linux-sysfs); nothing changed", c);
	if (set && o->method && strcmp(o->method, "linux-sysfs"))
		return fail(err, "%s: -A %s: MWI changes only through the kernel's mwi "
			    "attribute (access method linux-sysfs); nothing changed", c, o->method);
	if (!strcmp(c, "list")) {
		if (o->nslots > 1)
			return fail(err, "list: takes at most one -s SLOT");
		return 0;
	}
	if (!strcmp(c, "show") || !strcmp(c, "get")) {
		if (o->nslots == 1 || (!o->nslots && o->id))
			return 0;
		return fail(err, "%s: needs one SLOT or -d ID", c);
	}
	if (!o->nslots && !o->id)
		return fail(err, "%s: needs SLOT... or -d ID", c);
	return 0;
}

/* Whether some -O sets @param ("NAME="). */
static int param_given(const struct opts *o, const char *param)
{
	int i;

	for (i = 0; i < o->nparams; i++)
		if (!strncmp(o->params[i], param, strlen(param)))
			return 1;
	return 0;
}

/* -A and -F: one access method; a dump needs its file. 0, or -1 with @err. */
static int check_access(const struct opts *o, char **err)
{
	if (o->dump && o->method && strcmp(o->method, "dump"))
		return fail(err, "option '-F' reads a dump: not with -A %s", o->method);
	if (o->method && !strcmp(o->method, "dump") && !o->dump &&
	    !param_given(o, "dump.name="))
		return fail(err, "-A dump needs the dump: -F FILE");
	return 0;
}

/* Take the value of option @c; an empty one is refused. */
static int take_value(struct opts *o, int c, char **argv, char **err)
{
	const char *name;
	char letter[3];
	int len;

	if (!*optarg) {
		len = typed(&name, letter, argv[optind - 1], c);
		return fail(err, "option '%.*s' needs a value, not an empty one", len, name);
	}
	switch (c) {
	case 's':
		return add_slot(o, optarg, 1) ? -2 : 0;
	case 'O':
		return add_arg(&o->params, &o->nparams, optarg) ? -2 : 0;
	case 'd':
		if (o->id) {
			return fail(err, "option '-d' given twice");
		}
		o->id = optarg;
		return 0;
	case 'i':
		o->pci_ids = optarg;
		return 0;
	case 'A':
		o->method = optarg;
		o->methods = !strcmp(optarg, "help");
		return 0;
	case 'F':
		o->dump = optarg;
		o->dump_at = o->nparams;
		return 0;
	case OPT_SYSFS:
		o->sysfs = optarg;
		return 0;
	default:
		o->debugfs = optarg;
		return 0;
	}
}

/* Empty environment variables count as unset. */
static const char *env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

/*
 * Fill @o from argv. 0 on success, or -1 with a message in *@err, to be
 * freed (NULL: out of memory).
 */
int parse_args(int argc, char **argv, struct opts *o, char **err)
{
	int c, i, rc;

	memset(o, 0, sizeof(*o));
	/* the test seam, and where names come from: mwictl(8), ENVIRONMENT */
	o->sysfs = env("MWICTL_SYSFS");
	o->pci_ids = env("MWICTL_PCI_IDS");
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":s:d:ni:O:A:F:qhV", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
		case 'd':
		case 'i':
		case 'O':
		case 'A':
		case 'F':
		case OPT_SYSFS:
		case OPT_DEBUGFS:
			rc = take_value(o, c, argv, err);
			if (rc == -2)
				goto nomem;
			if (rc)
				return -1;
			if (o->methods)
				return 0;	/* -A help, as lspci's */
			break;
		case 'n':
			o->numeric++;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case OPT_JSON:
			o->json = 1;
			break;
		case OPT_DRY_RUN:
			o->dry_run = 1;
			break;
		case OPT_REBIND:
			o->rebind = 1;
			break;
		case OPT_FORCE:
			o->force = 1;
			break;
		case OPT_YES:
			o->yes = 1;
			break;
		case 'h':
			o->help = 1;
			return 0;
		case 'V':
			o->version = 1;
			return 0;
		default:
			return option_error(c, argv, err);
		}
	}
	o->command = "list";
	i = optind;
	if (i < argc) {
		if (!is_command(argv[i]))
			return fail(err, "unknown command '%s'", argv[i]);
		o->command = argv[i++];
	}
	o->rule_on = 1;
	if (!strcmp(o->command, "rule") && i < argc &&
	    (!strcmp(argv[i], "on") || !strcmp(argv[i], "off")))
		o->rule_on = !strcmp(argv[i++], "on");
	for (; i < argc; i++) {
		if (!strcmp(o->command, "list"))
			return fail(err, "list: unexpected argument '%s' (use -s SLOT)", argv[i]);
		if (!*argv[i])
			return fail(err, "%s: an empty SLOT", o->command);
		if (add_slot(o, argv[i], 0))
			goto nomem;
	}
	if (!o->sysfs)
		o->sysfs = SYSFS_ROOT;
	if (check_access(o, err))
		return -1;
	return check_command(o, err);
nomem:
	*err = NULL;		/* main() says "out of memory" */
	return -1;
}
