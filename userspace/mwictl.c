// SPDX-License-Identifier: GPL-2.0
/*
 * mwictl - inspect and control PCI Memory-Write-and-Invalidate.
 *
 * Reads state from sysfs (or, with another access method or a dump, from
 * config space through libpci) and changes it only through the kernel's
 * verified path, the mwi attribute; never writes config space itself.
 */
#define _GNU_SOURCE		/* vasprintf */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mwictl.h"

struct selection {
	struct dev *devs;	/* every device */
	size_t n;
	char *picked;		/* picked[i]: devs[i] was selected */
};

/* A message piece of any length: asprintf() or exit. */
static char *__attribute__((format(printf, 1, 2))) xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *str;
	int len;

	va_start(ap, fmt);
	len = vasprintf(&str, fmt, ap);
	va_end(ap);
	if (len < 0)
		die_code(EXIT_IO, "out of memory");
	return str;
}

/*
 * Slot argument @i as the user typed it, whole, for messages: "-s 'SPEC'"
 * or "'SPEC'"; with @i < 0, the -d argument: "-d 'ID'". To be freed.
 */
static char *typed_arg(const struct opts *o, int i)
{
	if (i < 0)
		return xasprintf("-d '%s'", o->id);
	return xasprintf("%s'%s'", o->slot_opt[i] ? "-s " : "", o->slots[i]);
}

/* The filter of slot argument @i, or of -d (@i < 0). */
static struct pci_filter *parse_filter(const struct opts *o, int i)
{
	struct pci_filter *f;
	const char *err;

	f = lib_filter(i < 0 ? o->id : o->slots[i], i >= 0, &err);
	if (!f)
		die("%s: %s", typed_arg(o, i), err);
	return f;
}

/*
 * What @what asks for of @d: from sysfs, where the kernel's mwi attribute
 * is, or, with another access method (-A, -F), from config space alone.
 */
static void read_dev(const struct opts *o, struct dev *d, unsigned int what)
{
	if (lib_kernel_attrs())
		sysfs_read(o->sysfs, d, what);
	else
		config_read(d, what);
}

/*
 * Every device under /sys (or that -A or -F finds). Without one, only "rule -d" goes on (image
 * builds, chroots): its rule matches IDs, not present functions.
 */
static void scan(const struct opts *o, struct selection *s)
{
	int err = lib_scan(o->sysfs, &s->devs, &s->n);
	int rule_by_id = !strcmp(o->command, "rule") && !o->nslots;

	if (err == -ENOENT && rule_by_id)
		s->n = 0;
	else if (err)
		die_code(EXIT_IO, "%s/bus/pci/devices: %s", o->sysfs, strerror(-err));
	s->picked = calloc(s->n ? s->n : 1, 1);
	if (!s->picked)
		die_code(EXIT_IO, "out of memory");
}

/* Pick the devices matching -d and slot argument @slot (< 0: any slot). */
static size_t pick(const struct opts *o, struct selection *s, int slot)
{
	struct pci_filter *sf = NULL, *idf = NULL;
	size_t i, hits = 0;

	if (slot >= 0)
		sf = parse_filter(o, slot);
	if (o->id)
		idf = parse_filter(o, -1);
	for (i = 0; i < s->n; i++) {
		if (sf && !lib_match(sf, &s->devs[i]))
			continue;
		if (idf && !lib_match(idf, &s->devs[i]))
			continue;
		s->picked[i] = 1;
		hits++;
	}
	lib_filter_free(sf);
	lib_filter_free(idf);
	return hits;
}

/* What the user selected with, as typed: "'SLOT'", "-d 'ID'" or both. */
static char *selector(const struct opts *o)
{
	if (!o->nslots)
		return typed_arg(o, -1);
	if (o->id)
		return xasprintf("%s'%s' -d '%s'", o->slot_opt[0] ? "-s " : "", o->slots[0],
				 o->id);
	return typed_arg(o, 0);
}

/* The one device that the slot and/or -d of show and get select. */
static struct dev *pick_one(const struct opts *o, struct selection *s)
{
	size_t i, hits = pick(o, s, o->nslots ? 0 : -1);

	if (!hits)
		die_code(EXIT_NODEV, "%s: no such device", selector(o));
	if (hits > 1)
		die("%s: matches %zu devices; give one slot", selector(o), hits);
	for (i = 0; !s->picked[i]; i++)
		;
	return &s->devs[i];
}

/* Pick every device that each slot (or -d alone) selects; exit code 2 if one found none. */
static int pick_all(const struct opts *o, struct selection *s)
{
	int i, code = EXIT_OK;
	char *what;

	if (!o->nslots && !pick(o, s, -1))
		die_code(EXIT_NODEV, "%s: no such device", typed_arg(o, -1));
	for (i = 0; i < o->nslots; i++) {
		if (!pick(o, s, i)) {
			what = typed_arg(o, i);
			fprintf(stderr, "mwictl: %s: no such device\n", what);
			free(what);
			code = EXIT_NODEV;
		}
	}
	return code;
}

static const char *debugfs_dir(const struct opts *o, char *buf, size_t size)
{
	if (o->debugfs)
		return o->debugfs;
	snprintf(buf, size, "%s/kernel/debug", o->sysfs);
	return buf;
}

/*
 * /proc beside --sysfs: "/sys" gives "/proc", "DIR/sys" "DIR/proc". The
 * tests' fake trees have their proc files there: --sysfs is the one seam.
 */
static const char *proc_dir(const struct opts *o, char *buf, size_t size)
{
	const char *slash = strrchr(o->sysfs, '/');
	int len = slash ? (int)(slash - o->sysfs) : 1;

	snprintf(buf, size, "%.*s/proc", len, slash ? o->sysfs : ".");
	return buf;
}

/*
 * On a kernel without the series, or with an access method that has no
 * kernel attribute, say where the state came from, unless -q.
 */
static void warn_fallback(const struct opts *o)
{
	if (o->quiet)
		return;
	if (!lib_kernel_attrs())
		fprintf(stderr, "mwictl: access method %s has no mwi attribute; "
			"state read from config space\n", lib_method_name());
	else
		fprintf(stderr, "mwictl: the running kernel has no mwi attribute; "
			"state read from config space\n");
}

static int cmd_list(const struct opts *o, struct selection *s)
{
	struct dev *sel;
	size_t i, k = 0;
	int fallback = 0;

	pick(o, s, o->nslots ? 0 : -1);
	sel = calloc(s->n ? s->n : 1, sizeof(*sel));
	if (!sel)
		die_code(EXIT_IO, "out of memory");
	for (i = 0; i < s->n; i++) {
		if (!s->picked[i])
			continue;
		lib_fill(&s->devs[i], o->json ? LIB_EXT : 0);
		read_dev(o, &s->devs[i], READ_MWI | READ_CLS |
			   (o->json ? READ_PCIE : 0));
		sel[k++] = s->devs[i];
		fallback |= s->devs[i].source == MWI_FROM_CONFIG;
	}
	if (fallback)
		warn_fallback(o);
	print_list(sel, k, o->json, o->numeric);
	free(sel);
	return EXIT_OK;
}

/*
 * Whether the running kernel lacks the mwi attribute: the first function
 * that could have one (not PCI Express, not a VF) tells. Another access
 * method than linux-sysfs says nothing about the kernel: 0.
 */
static int kernel_lacks_attr(const struct opts *o, struct selection *s)
{
	size_t k;

	if (!lib_kernel_attrs())
		return 0;
	for (k = 0; k < s->n; k++) {
		read_dev(o, &s->devs[k], READ_MWI);
		if (s->devs[k].source == MWI_FROM_SYSFS)
			return 0;
		if (s->devs[k].source == MWI_FROM_CONFIG)
			return 1;
	}
	return 0;
}

/*
 * Without diagnostics, show says why: first that the kernel lacks the series
 * when no function has the mwi attribute, and only then about debugfs.
 */
static int cmd_show(const struct opts *o, struct selection *s)
{
	char buf[PATH_MAX];
	struct diag_table t = { 0 };
	struct dev *d = pick_one(o, s);
	int no_series = kernel_lacks_attr(o, s);

	lib_fill(d, o->json ? LIB_EXT : 0);
	read_dev(o, d, READ_MWI | READ_CLS | (o->json ? READ_PCIE : 0));
	if (d->source == MWI_FROM_CONFIG)
		warn_fallback(o);
	if (lib_kernel_attrs()) {
		diag_read(debugfs_dir(o, buf, sizeof(buf)), d, 1, &t);
	} else {
		t.method = lib_method_name();
		t.platform_cls = -1;
	}
	t.no_series = no_series;
	print_show(d, &t, o->json, o->numeric);
	return EXIT_OK;
}

/* Exit code and words for a negative errno of writing the mwi attribute. */
static int errno_code(int err, int on, const char **why)
{
	switch (-err) {
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
	case EBUSY:
		*why = "a driver is bound";
		return EXIT_BUSY;
	default:
		*why = strerror(-err);
		return EXIT_IO;
	}
}

/*
 * Refusals that are the same for every function of a command (the kernel
 * lacks the attribute, permission denied, MWI cannot exist): said once, by
 * cmd_set(), as "SLOT: WHY" or "SLOT and N more functions: WHY".
 */
#define MAX_REFUSALS 5		/* no attribute, EACCES, EPERM, PCIe, VF */

struct refusals {
	struct {
		const char *slot;	/* the first function refused */
		size_t more;		/* how many others */
		char why[128];		/* the longest is under 100 */
	} r[MAX_REFUSALS];
	size_t n;
};

/* Note that @d was refused for the words of @fmt. */
static void __attribute__((format(printf, 3, 4)))
refuse(struct refusals *rf, const struct dev *d, const char *fmt, ...)
{
	char why[sizeof(rf->r[0].why)];
	va_list ap;
	size_t i;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	for (i = 0; i < rf->n; i++) {
		if (!strcmp(rf->r[i].why, why)) {
			rf->r[i].more++;
			return;
		}
	}
	if (rf->n == MAX_REFUSALS) {
		fprintf(stderr, "mwictl: %s: %s\n", d->slot, why);
		return;
	}
	rf->r[rf->n].slot = d->slot;
	rf->r[rf->n].more = 0;
	memcpy(rf->r[rf->n].why, why, sizeof(why));
	rf->n++;
}

static void say_refusals(const struct refusals *rf)
{
	size_t i;

	for (i = 0; i < rf->n; i++) {
		fprintf(stderr, "mwictl: %s", rf->r[i].slot);
		if (rf->r[i].more)
			fprintf(stderr, " and %zu more function%s", rf->r[i].more,
				rf->r[i].more > 1 ? "s" : "");
		fprintf(stderr, ": %s\n", rf->r[i].why);
	}
}

/*
 * Report a failed write of @on to @d (@err a negative errno): a refusal for
 * every function through @rf, else on standard error, "SLOT: [DOING: ]WHY".
 * Returns its exit code.
 */
static int write_failed(const struct opts *o, struct refusals *rf, const struct dev *d, int on,
			int err, const char *doing)
{
	const char *why, *eperm = NULL;
	int code = errno_code(err, on, &why);
	char proc[PATH_MAX];

	if (code == EXIT_PERM && !doing) {
		if (err == -EPERM)
			eperm = sysfs_eperm_reason(o->sysfs, proc_dir(o, proc, sizeof(proc)));
		refuse(rf, d, "permission denied (%s)",
		       eperm ? eperm : "needs root with CAP_SYS_ADMIN");
		return code;
	}
	fprintf(stderr, "mwictl: %s: %s%s%s\n", d->slot, doing ? doing : "",
		doing ? ": " : "", why);
	return code;
}

/* A state that cannot be read is an I/O error (6), or 4 when access is denied. */
static int cmd_get(const struct opts *o, struct selection *s)
{
	struct dev *d = pick_one(o, s);
	int denied;

	read_dev(o, d, READ_MWI);
	if (d->source == MWI_NOT_POSSIBLE) {
		printf("n/a\n");
		return EXIT_OK;
	}
	if (d->mwi < 0) {
		denied = d->mwi_errno == EACCES || d->mwi_errno == EPERM;
		die_code(denied ? EXIT_PERM : EXIT_IO, "%s: cannot read MWI state: %s", d->slot,
			 denied ? "permission denied" : strerror(d->mwi_errno));
	}
	if (d->source == MWI_FROM_CONFIG)
		warn_fallback(o);
	printf("%d\n", d->mwi);
	return EXIT_OK;
}

/*
 * Say what happened to @d, which was in state @before (-1: unknown),
 * on standard output unless -q.
 */
static void report(const struct opts *o, const struct dev *d, int before, int on)
{
	const char *word = on ? "on" : "off";

	if (o->quiet)
		return;
	if (d->source == MWI_NOT_POSSIBLE && !on)
		printf("%s: MWI already off (%s)\n", d->slot, d->na_reason);
	else if (before == on)
		printf("%s: MWI already %s\n", d->slot, word);
	else if (o->dry_run)
		printf("%s: MWI would be turned %s\n", d->slot, word);
	else
		printf("%s: MWI turned %s\n", d->slot, word);
}

/*
 * @d has no mwi attribute: where MWI cannot exist, off is already the state
 * and on is refused; elsewhere the kernel lacks the series.
 */
static int set_without_attr(const struct opts *o, struct refusals *rf, const struct dev *d,
			    int on)
{
	if (d->source != MWI_NOT_POSSIBLE) {
		refuse(rf, d, "the running kernel has no mwi attribute "
		       "(it needs the pci-mwi kernel patch series)");
		return EXIT_NOATTR;
	}
	if (on) {
		refuse(rf, d, "device refused MWI (%s: the MWI bit is hardwired to 0)",
		       d->na_reason);
		return EXIT_REFUSED;
	}
	report(o, d, 0, on);
	return EXIT_OK;
}

/*
 * The errno a write to @d's mwi would get, without writing: -EACCES or -EPERM
 * (capability, user namespace, lockdown) as the kernel checks permission
 * first, then -EBUSY while a driver is bound (read by lib_driver()),
 * whatever the state asked for.
 */
static int predict_write(const struct opts *o, const struct dev *d)
{
	char proc[PATH_MAX];
	int err = sysfs_mwi_write_denied(o->sysfs, proc_dir(o, proc, sizeof(proc)), d->slot);

	if (!err && d->driver[0])
		err = -EBUSY;
	return err;
}

/*
 * --rebind on @d, which has a driver: unbind it, write, bind it again, and
 * say what the driver then chose. Permission is checked first, so that a
 * write that would be refused restarts nothing, then that no filesystem,
 * swap or stacked device lives on the function (unless --force); the driver
 * is bound again whatever the write did, with every signal that can be
 * held (all but SIGKILL and SIGSTOP) held until then. --dry-run checks, and writes nothing.
 */
static int set_rebind(const struct opts *o, struct refusals *rf, struct dev *d, int on)
{
	const char *word = on ? "on" : "off";
	char driver[sizeof(d->driver)], doing[sizeof(d->driver) + 16], proc[PATH_MAX];
	int err, berr, code = EXIT_OK;
	sigset_t stop, old;
	char *why = NULL;

	snprintf(driver, sizeof(driver), "%s", d->driver);
	/* never restart a device for a write that would be refused */
	err = sysfs_mwi_write_denied(o->sysfs, proc_dir(o, proc, sizeof(proc)), d->slot);
	if (err)
		return write_failed(o, rf, d, on, err, NULL);
	/* nor take a mounted filesystem, swap or stacked device away */
	err = o->force ? 0 : inuse_why(o->sysfs, proc, d->slot, &why);
	if (err) {
		fprintf(stderr, "mwictl: %s: %s: not unbinding %s (--force to unbind anyway)\n",
			d->slot, why ? why : strerror(-err), driver);
		free(why);
		return err < 0 ? EXIT_IO : EXIT_BUSY;
	}
	if (o->dry_run) {
		if (!o->quiet)
			printf("%s: %s would be unbound, MWI turned %s and %s bound again\n",
			       d->slot, driver, word, driver);
		return EXIT_OK;
	}
	/* a signal now would leave the function without its driver */
	sigfillset(&stop);
	sigprocmask(SIG_BLOCK, &stop, &old);
	err = sysfs_bind(o->sysfs, d->slot, driver, 0);
	if (err) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		snprintf(doing, sizeof(doing), "cannot unbind %s", driver);
		return write_failed(o, rf, d, on, err, doing);
	}
	err = sysfs_write_mwi(o->sysfs, d->slot, on);
	berr = sysfs_bind(o->sysfs, d->slot, driver, 1);
	sigprocmask(SIG_SETMASK, &old, NULL);
	read_dev(o, d, READ_MWI);
	if (err)
		code = write_failed(o, rf, d, on, err, NULL);
	if (berr) {
		fprintf(stderr, "mwictl: %s: %s did not bind again: %s\n", d->slot, driver,
			strerror(-berr));
		return exit_worse(code, EXIT_IO);
	}
	if (!err && !o->quiet)
		printf("%s: MWI turned %s with %s unbound; %s bound again and has MWI %s\n",
		       d->slot, word, driver, driver, mwi_word(d));
	return code;
}

/*
 * Turn MWI on or off on @d through the kernel and report it. To tell
 * "turned" from "already" the state is read first (one config read), except
 * with -q. The kernel writes nothing for the state a device is in, so the
 * write is always made and the exit code is the same either way.
 */
static int set_one(const struct opts *o, struct refusals *rf, struct dev *d, int on)
{
	int err, code, before = -1;
	const char *why;

	/* cli.c refuses on/off under -A or -F; never write from a dump's slot */
	if (!lib_kernel_attrs())
		die("%s: the access method has no mwi attribute to write", d->slot);
	if (!o->quiet || o->dry_run || o->rebind) {
		lib_driver(d, 0);
		read_dev(o, d, READ_MWI);
		if (d->source == MWI_NOT_POSSIBLE || d->source == MWI_FROM_CONFIG)
			return set_without_attr(o, rf, d, on);
		if (d->source == MWI_FROM_SYSFS)
			before = d->mwi;
		if (o->rebind && d->driver[0])
			return set_rebind(o, rf, d, on);
	}
	err = o->dry_run ? predict_write(o, d) : sysfs_write_mwi(o->sysfs, d->slot, on);
	if (err == -ENOENT && sysfs_has_device(o->sysfs, d->slot)) {
		read_dev(o, d, READ_MWI);
		return set_without_attr(o, rf, d, on);
	}
	if (!err) {
		report(o, d, before, on);
		return EXIT_OK;
	}
	if (err == -ENOENT)
		err = -ENODEV;
	if (err != -EBUSY)
		return write_failed(o, rf, d, on, err, NULL);
	code = errno_code(err, on, &why);
	/* the driver now, which may have been bound since the scan */
	if (!o->dry_run)
		lib_driver(d, 1);
	fprintf(stderr, "mwictl: %s: %s%s%s%s: MWI unchanged (unbind it first, or --rebind)\n",
		d->slot, why,
		d->driver[0] ? " (" : "", d->driver, d->driver[0] ? ")" : "");
	return code;
}

/* Whether --rebind would restart @d: it has a driver and an mwi attribute. */
static int restarts(const struct dev *d)
{
	return d->driver[0] && (d->source == MWI_FROM_SYSFS || d->source == MWI_UNKNOWN);
}

/*
 * --rebind restarts every function with a driver and an mwi attribute: with
 * more than one, ask first on a terminal, and without one (a script) go on
 * only with --yes. A "no", or no --yes, exits 1 with nothing changed.
 */
static void confirm_rebind(const struct opts *o, struct selection *s)
{
	char answer[16] = "";
	size_t k, n = 0;

	for (k = 0; k < s->n; k++) {
		if (!s->picked[k])
			continue;
		lib_driver(&s->devs[k], 0);
		read_dev(o, &s->devs[k], READ_MWI);
		n += restarts(&s->devs[k]);
	}
	if (n < 2 || o->yes || o->dry_run)
		return;
	if (!isatty(STDIN_FILENO))
		die("--rebind would restart %zu functions: give --yes to confirm "
		    "(standard input is not a terminal); nothing changed", n);
	fprintf(stderr, "mwictl: --rebind restarts %zu functions:", n);
	for (k = 0; k < s->n; k++)
		if (s->picked[k] && restarts(&s->devs[k]))
			fprintf(stderr, " %s (%s)", s->devs[k].slot, s->devs[k].driver);
	fputs(". Go on? [y/N] ", stderr);
	if (!fgets(answer, sizeof(answer), stdin) ||
	    (strcmp(answer, "y\n") && strcmp(answer, "yes\n")))
		die("nothing changed");
}

static int cmd_set(const struct opts *o, struct selection *s, int on)
{
	int worst = pick_all(o, s);
	struct refusals rf = { 0 };
	size_t k;

	if (o->rebind)
		confirm_rebind(o, s);

	for (k = 0; k < s->n; k++)
		if (s->picked[k])
			worst = exit_worse(worst, set_one(o, &rf, &s->devs[k], on));
	say_refusals(&rf);
	return worst;
}

/* Warn about each present function that -d matches and where MWI cannot exist. */
static void warn_not_possible(const struct opts *o, struct selection *s)
{
	size_t k;

	pick(o, s, -1);
	for (k = 0; k < s->n; k++) {
		if (!s->picked[k])
			continue;
		read_dev(o, &s->devs[k], READ_MWI);
		if (s->devs[k].source == MWI_NOT_POSSIBLE)
			fprintf(stderr, "mwictl: rule: -d '%s' matches %s, a %s: MWI cannot exist "
				"there and the rule skips it\n", o->id, s->devs[k].slot,
				s->devs[k].na_reason);
	}
}

/*
 * udev rules for the selection: one per function a slot selects (with the
 * IDs of -d, if given), or one by the IDs of -d alone, which need not be
 * present yet (and needs no /sys: s may be empty).
 */
static int cmd_rule(const struct opts *o, struct selection *s)
{
	struct pci_filter *idf = o->id ? parse_filter(o, -1) : NULL;
	int code = EXIT_OK;
	size_t k;

	if (!o->nslots && !rule_ids_given(idf))
		die("rule: -d '%s' selects every PCI function; name a vendor, device or class",
		    o->id);
	if (o->nslots)
		code = pick_all(o, s);
	if (!o->quiet && kernel_lacks_attr(o, s))
		fprintf(stderr, "mwictl: rule: the running kernel has no mwi attribute: "
			"the rules do nothing until it has one\n");
	if (!o->nslots && !o->quiet)
		warn_not_possible(o, s);
	print_rule_header(o->rule_on);
	for (k = 0; k < s->n && o->nslots; k++) {
		if (!s->picked[k])
			continue;
		read_dev(o, &s->devs[k], READ_MWI);
		if (s->devs[k].source == MWI_NOT_POSSIBLE) {
			fprintf(stderr, "mwictl: %s: no rule: MWI cannot exist on a %s\n",
				s->devs[k].slot, s->devs[k].na_reason);
			code = exit_worse(code, EXIT_REFUSED);
			continue;
		}
		print_rule(&s->devs[k], idf, o->rule_on);
	}
	if (!o->nslots)
		print_rule(NULL, idf, o->rule_on);
	lib_filter_free(idf);
	return code;
}

int main(int argc, char **argv)
{
	struct selection s = { 0 };
	struct opts o;
	char *err;
	int rc;

	if (parse_args(argc, argv, &o, &err)) {
		fprintf(stderr, "mwictl: %s\nTry 'mwictl --help'.\n", err ? err : "out of memory");
		free(err);
		return EXIT_USAGE;
	}
	if (o.help) {
		usage();
		return out_close(EXIT_OK);
	}
	if (o.version) {
		printf("mwictl " MWICTL_VERSION "\n");
		return out_close(EXIT_OK);
	}
	if (o.methods) {
		lib_list_methods();
		return out_close(EXIT_OK);
	}
	if (getenv("MWICTL_DEBUGFS") && *getenv("MWICTL_DEBUGFS") && !o.quiet)
		fputs("mwictl: MWICTL_DEBUGFS is ignored since mwictl 3.0: give --debugfs\n",
		      stderr);
	lib_init(&o);
	scan(&o, &s);
	if (!strcmp(o.command, "list"))
		rc = cmd_list(&o, &s);
	else if (!strcmp(o.command, "show"))
		rc = cmd_show(&o, &s);
	else if (!strcmp(o.command, "get"))
		rc = cmd_get(&o, &s);
	else if (!strcmp(o.command, "rule"))
		rc = cmd_rule(&o, &s);
	else
		rc = cmd_set(&o, &s, !strcmp(o.command, "on"));
	lib_cleanup();
	free(s.devs);
	free(s.picked);
	free(o.slots);
	free(o.slot_opt);
	free(o.params);
	return out_close(rc);
}
