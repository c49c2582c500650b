/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mwictl - inspect and control PCI Memory-Write-and-Invalidate
 */
#ifndef MWICTL_H
#define MWICTL_H

#include <stdarg.h>
#include <stddef.h>

#define MWICTL_VERSION "3.0"

/* The "version" of the --json output; raised on an incompatible change. */
#define MWICTL_JSON_VERSION 4

/*
 * Exit codes: see mwictl(8). With several devices the most severe wins, in
 * the order of exit_worse() (die.c), not the highest number.
 *
 * Errors: a function that can fail returns 0 (or a length or descriptor) or
 * a negative errno, as the kernel's do; an errno kept for later (mwi_errno,
 * diag_table.err) is positive, as errno itself is.
 */
enum {
	EXIT_OK = 0,
	EXIT_USAGE = 1,		/* usage error or bad input */
	EXIT_NODEV = 2,		/* no such device */
	EXIT_REFUSED = 3,	/* the device refused the state asked for */
	EXIT_PERM = 4,		/* permission denied */
	EXIT_NOATTR = 5,	/* the running kernel has no mwi attribute */
	EXIT_IO = 6,		/* other I/O error */
	EXIT_BUSY = 7,		/* a driver is bound: the kernel changes nothing */
};

/* Where a device's MWI state came from. */
enum mwi_source {
	MWI_FROM_SYSFS,		/* the kernel's mwi attribute */
	MWI_FROM_CONFIG,	/* bit 4 of COMMAND in config space (config.c) */
	MWI_UNKNOWN,		/* neither could be read; see mwi_errno */
	MWI_NOT_POSSIBLE,	/* no attribute: PCI Express or a VF; see na_reason */
};

/* One device's row of <debugfs>/pci/mwi: MWI as the kernel sees it now. */
struct mwi_diag {
	int valid;
	int possible;			/* MWI can exist on the function */
	char hw[12];			/* on, off, ?, d3cold, suspended */
	int cls_bytes;			/* -1 for ? and d3cold */
	char policy[16];		/* drivers, or off after a sysfs "0" */
	char driver[64];		/* "" when none is bound */
};

struct pci_dev;

struct dev {
	struct pci_dev *p;		/* libpci's */
	char slot[24];			/* domain:bus:dev.fn as in sysfs */
	/* from libpci, after lib_fill() */
	int vendor, device, class;	/* class has the programming interface (LIB_EXT) */
	int revision;			/* -1 without LIB_EXT */
	char driver[64];		/* "" when none is bound */
	int pcie;			/* a PCI Express function (READ_PCIE): 1, 0,
				 * or -errno when that cannot be read */
	int mwi;			/* 1, 0, or -1 when unknown */
	enum mwi_source source;
	int mwi_errno;			/* why mwi is -1 */
	const char *na_reason;		/* why MWI cannot exist (MWI_NOT_POSSIBLE) */
	int cls_bytes;			/* cache line size; -1 when unreadable */
	struct mwi_diag diag;
};

struct opts {
	const char *command;		/* list, show, get, on, off, rule */
	char **slots;			/* -s or positional slot arguments */
	char *slot_opt;			/* slot_opt[i]: slots[i] was given with -s */
	int nslots;
	const char *id;			/* -d VENDOR:DEVICE */
	const char *sysfs;		/* --sysfs or MWICTL_SYSFS; default SYSFS_ROOT */
	const char *debugfs;		/* --debugfs */
	const char *method;		/* -A METHOD: libpci's name */
	const char *dump;		/* -F FILE: an lspci -x dump */
	int dump_at;			/* how many -O came before the last -F */
	const char *pci_ids;		/* -i or MWICTL_PCI_IDS; NULL: libpci's */
	char **params;			/* -O PARAM=VALUE for libpci */
	int nparams;
	int numeric;			/* how many -n */
	int json;			/* --json */
	int quiet;			/* -q */
	int dry_run;			/* --dry-run */
	int rebind;			/* --rebind */
	int force;			/* --force: --rebind even what is in use */
	int yes;			/* --yes: --rebind several without asking */
	int rule_on;			/* rule on (1, also by default) or rule off (0) */
	int help, version, methods;	/* methods: -A help */
};

/* cli.c */
int parse_args(int argc, char **argv, struct opts *o, char **err);
void usage(void);

/* parse.c: pure parsers of what the kernel exposes */
int parse_mwi_attr(const char *buf, size_t len);
int parse_diag_row(const char *line, char *slot, size_t slotsz, struct mwi_diag *diag);

/* What sysfs_read() and config_read() read. */
#define READ_MWI	0x1		/* MWI state */
#define READ_CLS	0x2		/* the cache line size */
#define READ_PCIE	0x4		/* PCI Express-ness (--json) */

/* config.c: config space through libpci, whatever the access method */
int config_mwi(struct dev *d);
int config_cls_bytes(struct dev *d);
int config_pcie(struct dev *d);
void config_read(struct dev *d, unsigned int what);
void config_state(struct dev *d, const char *na_reason);

/*
 * sysfs.c: what libpci does not know. The running kernel's sysfs: the
 * default of --sysfs, the one test seam (mwictl(8)).
 */
#define SYSFS_ROOT	"/sys"
void sysfs_read(const char *root, struct dev *d, unsigned int what);
int sysfs_write_mwi(const char *root, const char *slot, int on);
int sysfs_has_device(const char *root, const char *slot);
int sysfs_mwi_write_denied(const char *root, const char *proc, const char *slot);
const char *sysfs_eperm_reason(const char *root, const char *proc);
int sysfs_bind(const char *root, const char *slot, const char *driver, int bind);

/* inuse.c */
int inuse_why(const char *sysfs, const char *proc, const char *slot, char **why);

/* diag.c */
struct diag_table {
	int err;			/* 0, or why the table could not be read */
	int unmounted;			/* ENOENT because debugfs is not mounted */
	int known_format;		/* the column header is the one parsed */
	const char *path;		/* <debugfs>/pci/mwi */
	int platform_cls;		/* bytes; -1 when unknown */
	const char *method;		/* not read: access method without the kernel's files */
	int no_series;			/* no function has the mwi attribute (the caller's) */
};

void diag_read(const char *debugfs, struct dev *devs, size_t n, struct diag_table *t);
const char *diag_missing(const struct diag_table *t, char *buf, size_t size);

/* pcilib.c: functions, IDs, drivers, names and the -s/-d filters, from libpci */
struct pci_filter;
void lib_init(const struct opts *o);
void lib_list_methods(void);
int lib_kernel_attrs(void);
const char *lib_method_name(void);
int lib_config_byte(struct dev *d, int pos);
int lib_config_word(struct dev *d, int pos);
int lib_has_cap(struct dev *d, unsigned int id);
int lib_scan(const char *root, struct dev **devs, size_t *n);
#define LIB_EXT		0x1		/* programming interface and revision (--json) */
void lib_fill(struct dev *d, unsigned int what);
void lib_driver(struct dev *d, int again);
struct pci_filter *lib_filter(const char *spec, int slot, const char **err);
int lib_match(struct pci_filter *f, struct dev *d);
void lib_filter_free(struct pci_filter *f);
const char *lib_class_name(const struct dev *d, char *buf, size_t size);
const char *lib_vendor_name(const struct dev *d, char *buf, size_t size);
const char *lib_json_class_name(const struct dev *d, char *buf, size_t size);
const char *lib_json_device_name(const struct dev *d, char *buf, size_t size);
const char *lib_device_name(const struct dev *d, char *buf, size_t size);
void lib_cleanup(void);

/* rule.c */
int rule_ids_given(const struct pci_filter *f);
void print_rule_header(int on);
void print_rule(const struct dev *d, const struct pci_filter *f, int on);

/* output.c */
void print_list(const struct dev *devs, size_t n, int json, int numeric);
void print_show(const struct dev *d, const struct diag_table *t, int json, int numeric);
const char *mwi_word(const struct dev *d);

/* die.c */
int exit_worse(int a, int b);
int out_close(int code);
void die_vcode(int code, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0), noreturn));
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void die_code(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

#endif
