// SPDX-License-Identifier: GPL-2.0
/*
 * What libpci does not know, from sysfs: the MWI state (the kernel's mwi
 * attribute, or config.c's bit 4 of COMMAND on a kernel without it), whether
 * MWI can exist on a function, and the writes (mwi, bind and unbind). One
 * open of the function's directory, then one small read per attribute.
 * Never writes config space.
 */
#define _GNU_SOURCE		/* O_PATH */
#include <linux/capability.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mwictl.h"

#define DEVICES "bus/pci/devices"

/* @root/bus/pci/devices/@slot, then /@name when not NULL, into @buf; -1 when it does not fit. */
static int dev_path(char *buf, size_t size, const char *root, const char *slot,
		    const char *name)
{
	int len = snprintf(buf, size, "%s/" DEVICES "/%s%s%s", root, slot,
			   name ? "/" : "", name ? name : "");

	return len < 0 || (size_t)len >= size ? -1 : 0;
}

/* Read at most @size bytes of @name in the directory @dfd: the length or -errno. */
static ssize_t read_attr(int dfd, const char *name, void *buf, size_t size)
{
	ssize_t len;
	int fd, err;

	fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = read(fd, buf, size);
	err = errno;
	close(fd);
	return len < 0 ? -err : len;
}

/*
 * Whether @d is a PCI Express function: the kernel gives link attributes
 * (current_link_speed) to those only, which every user can see; the
 * capability in config space, through libpci, tells root the same.
 */
static int is_pcie(int dfd, struct dev *d)
{
	return faccessat(dfd, "current_link_speed", F_OK, 0) == 0 || config_pcie(d) > 0;
}

/*
 * Why a function without the mwi attribute can never have MWI: the
 * kernel hides the attribute on SR-IOV virtual functions (a physfn link)
 * and PCI Express functions. NULL when neither: the kernel lacks the series.
 */
static const char *mwi_not_possible(int dfd, struct dev *d)
{
	if (faccessat(dfd, "physfn", F_OK, AT_SYMLINK_NOFOLLOW) == 0)
		return "SR-IOV virtual function";
	if (is_pcie(dfd, d))
		return "PCI Express function";
	return NULL;
}

/*
 * MWI state: the kernel's mwi attribute when it exists, otherwise bit 4 of
 * COMMAND from config space (a kernel without the pci-mwi series). Config
 * space is read only for that, or when @need_cls.
 */
static void read_state(int dfd, struct dev *d, int need_cls)
{
	ssize_t len;
	char buf[8];

	len = read_attr(dfd, "mwi", buf, sizeof(buf));
	if (need_cls || len == -ENOENT)
		d->cls_bytes = config_cls_bytes(d);

	if (len != -ENOENT) {
		d->source = MWI_FROM_SYSFS;
		d->mwi = len < 0 ? -1 : parse_mwi_attr(buf, (size_t)len);
		d->mwi_errno = len < 0 ? (int)-len : EINVAL;
		if (d->mwi < 0 && len >= 0)
			d->source = MWI_UNKNOWN;
		return;
	}
	config_state(d, mwi_not_possible(dfd, d));
}

/*
 * The device's directory, opened once so that each attribute is one short
 * openat() instead of a walk through bus/pci/devices and its symlink.
 * The descriptor, or -errno.
 */
static int open_dev_dir(const char *root, const struct dev *d)
{
	char dir[PATH_MAX];
	int fd;

	if (dev_path(dir, sizeof(dir), root, d->slot, NULL))
		return -ENAMETOOLONG;
	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/*
 * Read what @what asks for (READ_MWI, READ_CLS, READ_PCIE) of @d; a
 * state or size that cannot be read is -1, and an unreadable MWI state says
 * why in mwi_errno.
 */
void sysfs_read(const char *root, struct dev *d, unsigned int what)
{
	int dfd = open_dev_dir(root, d);

	if (dfd < 0) {
		d->mwi = d->cls_bytes = -1;
		d->source = MWI_UNKNOWN;
		d->mwi_errno = -dfd;
		return;
	}
	if (what & READ_PCIE)
		d->pcie = is_pcie(dfd, d);
	if (what & READ_MWI)
		read_state(dfd, d, !!(what & READ_CLS));
	else if (what & READ_CLS)
		d->cls_bytes = config_cls_bytes(d);
	close(dfd);
}

/* 1 if @slot exists under @root, else 0. */
int sysfs_has_device(const char *root, const char *slot)
{
	char path[PATH_MAX];

	if (dev_path(path, sizeof(path), root, slot, NULL))
		return 0;
	return access(path, F_OK) == 0;
}

/* Whether this process has CAP_SYS_ADMIN in its effective set (1 when unknown). */
static int has_cap_sys_admin(void)
{
	struct __user_cap_header_struct head = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &head, data))
		return 1;
	return !!(data[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective & CAP_TO_MASK(CAP_SYS_ADMIN));
}

/* The first @size - 1 bytes of the file @path, as a string: the length or -errno. */
static ssize_t read_file(const char *path, char *buf, size_t size)
{
	ssize_t len = read_attr(AT_FDCWD, path, buf, size - 1);

	buf[len < 0 ? 0 : len] = '\0';
	return len;
}

/*
 * Whether this process is in the initial user namespace, where capable()
 * looks: its uid_map is the identity "0 0 4294967295" (1 when it cannot be
 * read: nothing is predicted then).
 */
static int initial_user_ns(const char *proc)
{
	char path[PATH_MAX], map[128];
	unsigned int in, out, count;
	int n = 0;

	if ((size_t)snprintf(path, sizeof(path), "%s/self/uid_map", proc) >= sizeof(path) ||
	    read_file(path, map, sizeof(map)) < 0)
		return 1;
	if (sscanf(map, "%u %u %u %n", &in, &out, &count, &n) != 3)
		return 1;
	return !map[n] && in == 0 && out == 0 && count == 4294967295U;
}

/*
 * The kernel's lockdown mode when it refuses PCI access (LOCKDOWN_PCI_ACCESS:
 * "integrity" and "confidentiality"), from @root/kernel/security/lockdown,
 * which shows the active mode in brackets; NULL otherwise.
 */
static const char *lockdown_mode(const char *root)
{
	static char mode[32];
	char path[PATH_MAX], buf[128], *open, *close;

	if ((size_t)snprintf(path, sizeof(path), "%s/kernel/security/lockdown", root) >=
	    sizeof(path) || read_file(path, buf, sizeof(buf)) < 0)
		return NULL;
	open = strchr(buf, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!close || (size_t)(close - open - 1) >= sizeof(mode))
		return NULL;
	snprintf(mode, sizeof(mode), "%.*s", (int)(close - open - 1), open + 1);
	return !strcmp(mode, "integrity") || !strcmp(mode, "confidentiality") ? mode : NULL;
}

/* Whether @root is the running kernel's /sys ("/sys/", another path to it). */
static int is_sysfs_root(const char *root)
{
	struct stat a, b;

	return !stat(root, &a) && !stat(SYSFS_ROOT, &b) && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/*
 * Why the kernel would refuse this process a write to an mwi attribute with
 * EPERM, in the order it checks: no CAP_SYS_ADMIN (checked for the running
 * kernel's /sys only: a tree that --sysfs names is a copy, with no such
 * rule), then CAP_SYS_ADMIN only in a user namespace (root in a container:
 * capable() asks the initial one; read from @proc), then lockdown. NULL
 * when none holds.
 */
const char *sysfs_eperm_reason(const char *root, const char *proc)
{
	static char why[64];
	const char *mode;

	if (is_sysfs_root(root) && !has_cap_sys_admin())
		return "needs root with CAP_SYS_ADMIN";
	if (!initial_user_ns(proc))
		return "needs CAP_SYS_ADMIN in the initial user namespace, "
		       "not a container's";
	mode = lockdown_mode(root);
	if (!mode)
		return NULL;
	snprintf(why, sizeof(why), "the kernel is locked down: %s", mode);
	return why;
}

/*
 * Whether a write to the device's mwi attribute would be refused for lack of
 * permission, in the order the kernel refuses it: -EACCES when the file's
 * mode does not let this process open it for writing, -EPERM for a reason of
 * sysfs_eperm_reason(), else 0. Reads no config space: "mwictl on
 * --dry-run" predicts with it.
 */
int sysfs_mwi_write_denied(const char *root, const char *proc, const char *slot)
{
	char path[PATH_MAX];

	if (dev_path(path, sizeof(path), root, slot, "mwi"))
		return 0;
	if (faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) && errno == EACCES)
		return -EACCES;
	return sysfs_eperm_reason(root, proc) ? -EPERM : 0;
}

/* Write @text to the attribute file @path in one write(2). 0 or -errno. */
static int write_attr(const char *path, const char *text)
{
	size_t n = strlen(text);
	ssize_t len;
	int fd, err;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = write(fd, text, n);
	err = len == (ssize_t)n ? 0 : len < 0 ? -errno : -EIO;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

/* Write "1\n" or "0\n" to the device's mwi attribute. 0 or -errno. */
int sysfs_write_mwi(const char *root, const char *slot, int on)
{
	char path[PATH_MAX];

	if (dev_path(path, sizeof(path), root, slot, "mwi"))
		return -ENAMETOOLONG;
	return write_attr(path, on ? "1\n" : "0\n");
}

/*
 * Unbind (@bind 0) @slot from the PCI driver @driver, or bind it again, through
 * bus/pci/drivers/@driver/unbind or bind. 0 or -errno.
 */
int sysfs_bind(const char *root, const char *slot, const char *driver, int bind)
{
	char path[PATH_MAX];
	int len = snprintf(path, sizeof(path), "%s/bus/pci/drivers/%s/%s", root, driver,
			   bind ? "bind" : "unbind");

	if (len < 0 || (size_t)len >= sizeof(path))
		return -ENAMETOOLONG;
	return write_attr(path, slot);
}
