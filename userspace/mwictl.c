// SPDX-License-Identifier: GPL-2.0
/*
 * mwictl - inspect and control PCI Memory-Write-and-Invalidate.
 *
 * Reads state from sysfs and changes it only through the kernel's verified
 * path, the mwi attribute; never writes config space itself.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mwictl.h"

static void __attribute__((noreturn, format(printf, 2, 0)))
vdie(int code, const char *fmt, va_list ap)
{
	fputs("mwictl: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	exit(code);
}

/* Print "mwictl: <what>: <why>" and exit 1 (usage or bad input). */
void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(EXIT_USAGE, fmt, ap);
}

/* The same with another exit code. */
static void die_code(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void die_code(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(code, fmt, ap);
}

struct selection {
	struct dev *devs;	/* every device */
	size_t n;
	char *picked;		/* picked[i]: devs[i] was selected */
};

static void parse_filter(struct mwi_filter *f, const char *spec, int slot)
{
	char err[256];

	if (filter_parse(f, spec, slot, err, sizeof(err)))
		die("%s", err);
}

static void scan(const struct opts *o, struct selection *s)
{
	int err = sysfs_scan(o->sysfs, &s->devs, &s->n);

	if (err)
		die_code(EXIT_IO, "%s/bus/pci/devices: %s", o->sysfs, strerror(-err));
	s->picked = calloc(s->n ? s->n : 1, 1);
	if (!s->picked)
		die_code(EXIT_IO, "out of memory");
}

/* Pick the devices matching -d and one slot spec (NULL: any slot). */
static size_t pick(const struct opts *o, struct selection *s, const char *slot)
{
	struct mwi_filter sf, idf;
	size_t i, hits = 0;

	if (slot)
		parse_filter(&sf, slot, 1);
	if (o->id)
		parse_filter(&idf, o->id, 0);
	for (i = 0; i < s->n; i++) {
		if (slot && !filter_match(&sf, &s->devs[i]))
			continue;
		if (o->id) {
			sysfs_read(o->sysfs, &s->devs[i], SYSFS_IDS);
			if (!filter_match(&idf, &s->devs[i]))
				continue;
		}
		s->picked[i] = 1;
		hits++;
	}
	return hits;
}

static struct dev *pick_one(const struct opts *o, struct selection *s)
{
	size_t i, hits = pick(o, s, o->slots[0]);

	if (!hits)
		die_code(EXIT_NODEV, "%s: no such device", o->slots[0]);
	if (hits > 1)
		die("%s: matches %zu devices; give one slot", o->slots[0], hits);
	for (i = 0; !s->picked[i]; i++)
		;
	return &s->devs[i];
}

static const char *debugfs_dir(const struct opts *o, char *buf, size_t size)
{
	if (o->debugfs && *o->debugfs)
		return o->debugfs;
	snprintf(buf, size, "%s/kernel/debug", o->sysfs);
	return buf;
}

static int cmd_list(const struct opts *o, struct selection *s)
{
	struct dev *sel;
	size_t i, k = 0;
	int fallback = 0;

	pick(o, s, o->nslots ? o->slots[0] : NULL);
	sel = calloc(s->n ? s->n : 1, sizeof(*sel));
	if (!sel)
		die_code(EXIT_IO, "out of memory");
	for (i = 0; i < s->n; i++) {
		if (!s->picked[i])
			continue;
		/* with -d, pick() has read the IDs already */
		sysfs_read(o->sysfs, &s->devs[i],
			   (o->id ? 0 : SYSFS_IDS) | SYSFS_STATE | SYSFS_CLS);
		sel[k++] = s->devs[i];
		fallback |= s->devs[i].source == MWI_FROM_CONFIG;
	}
	if (fallback)
		fprintf(stderr, "mwictl: the running kernel has no mwi attribute; "
			"state read from config space\n");
	print_list(sel, k, o->json, o->numeric);
	free(sel);
	return EXIT_OK;
}

static int cmd_show(const struct opts *o, struct selection *s)
{
	char buf[PATH_MAX];
	struct dev *d = pick_one(o, s);

	sysfs_read(o->sysfs, d, SYSFS_IDS | SYSFS_STATE | SYSFS_CLS);
	diag_read(debugfs_dir(o, buf, sizeof(buf)), d, 1);
	print_show(d, o->json, o->numeric);
	return EXIT_OK;
}

static int cmd_get(const struct opts *o, struct selection *s)
{
	struct dev *d = pick_one(o, s);

	sysfs_read(o->sysfs, d, SYSFS_STATE);
	if (d->source == MWI_NOT_POSSIBLE) {
		printf("n/a\n");
		return EXIT_OK;
	}
	if (d->mwi < 0)
		die_code(EXIT_IO, "%s: cannot read MWI state: %s", d->slot, strerror(d->mwi_errno));
	printf("%d\n", d->mwi);
	return EXIT_OK;
}

/* Exit code and words for a failed write of the mwi attribute. */
static int write_error(int err, int on, const char **why)
{
	switch (err) {
	case EOPNOTSUPP:
		*why = on ? "device refused MWI" : "device keeps MWI on";
		return EXIT_REFUSED;
	case EPERM:
	case EACCES:
		*why = "permission denied (needs root with CAP_SYS_ADMIN)";
		return EXIT_PERM;
	case ENODEV:
	case ENXIO:
		*why = "no such device";
		return EXIT_NODEV;
	default:
		*why = strerror(err);
		return EXIT_IO;
	}
}

static int set_one(const struct opts *o, const struct dev *d, int on)
{
	const char *why;
	int err, code;

	err = sysfs_write_mwi(o->sysfs, d->slot, on);
	if (!err)
		return EXIT_OK;
	if (err == ENOENT && sysfs_has_device(o->sysfs, d->slot)) {
		struct dev probe = *d;

		sysfs_read(o->sysfs, &probe, SYSFS_STATE);
		if (probe.source == MWI_NOT_POSSIBLE) {
			/* The bit is hardwired to 0: off is already the state. */
			if (!on)
				return EXIT_OK;
			fprintf(stderr, "mwictl: %s: device refused MWI (%s: the MWI bit "
				"is hardwired to 0)\n", d->slot, probe.na_reason);
			return EXIT_REFUSED;
		}
		fprintf(stderr, "mwictl: %s: the running kernel has no mwi attribute "
			"(it needs the pci-mwi kernel patch series)\n", d->slot);
		return EXIT_NOATTR;
	}
	if (err == ENOENT)
		err = ENODEV;
	code = write_error(err, on, &why);
	fprintf(stderr, "mwictl: %s: %s\n", d->slot, why);
	return code;
}

static int cmd_set(const struct opts *o, struct selection *s, int on)
{
	int i, code, worst = EXIT_OK;
	size_t k;

	if (!o->nslots && !pick(o, s, NULL))
		die_code(EXIT_NODEV, "-d %s: no such device", o->id);
	for (i = 0; i < o->nslots; i++) {
		if (!pick(o, s, o->slots[i])) {
			fprintf(stderr, "mwictl: %s: no such device\n", o->slots[i]);
			worst = EXIT_NODEV;
		}
	}
	for (k = 0; k < s->n; k++) {
		if (!s->picked[k])
			continue;
		code = set_one(o, &s->devs[k], on);
		if (code > worst)
			worst = code;
	}
	return worst;
}

int main(int argc, char **argv)
{
	struct selection s = { 0 };
	struct opts o;
	char err[256];
	int rc;

	if (parse_args(argc, argv, &o, err, sizeof(err))) {
		fprintf(stderr, "mwictl: %s\nTry 'mwictl --help'.\n", err);
		return EXIT_USAGE;
	}
	if (o.help) {
		usage();
		return EXIT_OK;
	}
	if (o.version) {
		printf("mwictl " MWICTL_VERSION "\n");
		return EXIT_OK;
	}
	names_init(o.numeric, o.pci_ids);
	scan(&o, &s);
	if (!strcmp(o.command, "list"))
		rc = cmd_list(&o, &s);
	else if (!strcmp(o.command, "show"))
		rc = cmd_show(&o, &s);
	else if (!strcmp(o.command, "get"))
		rc = cmd_get(&o, &s);
	else
		rc = cmd_set(&o, &s, !strcmp(o.command, "on"));
	names_cleanup();
	free(s.devs);
	free(s.picked);
	free(o.slots);
	return rc;
}
