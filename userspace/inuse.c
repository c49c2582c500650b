// SPDX-License-Identifier: GPL-2.0
/*
 * What unbinding a PCI function's driver would take away, for --rebind: a
 * block device below the function (an entry of sysfs class/block that
 * resolves into the function's directory, through any bridge, controller
 * or host in between) that holds a mounted filesystem (the root one among
 * them; /proc/self/mountinfo by major:minor, or by /dev name as the mount's
 * source, since btrfs, ZFS and bcachefs show a device number of their own
 * there; a btrfs device listed in sysfs fs/btrfs/UUID/devices/), an active
 * swap area (/proc/swaps) or a device stacked on it (holders/: LVM,
 * dm-crypt, md).
 */
#define _GNU_SOURCE		/* asprintf */
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mwictl.h"

/* The first line of @path into @buf, without its newline. 0 or -errno. */
static int read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	int err = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)size, f))
		err = -EIO;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return err;
}

/*
 * Where a filesystem on the block device @name, number @majmin ("8:1"), is
 * mounted, into @where: 1, 0 when nowhere, or -errno when
 * @proc/self/mountinfo cannot be read. A mount matches by its device number
 * or by its source, /dev/@name: btrfs, ZFS and bcachefs show a number of
 * their own ("0:27"), not the disk's.
 */
static int mounted(const char *proc, const char *name, const char *majmin, char *where,
		   size_t size)
{
	char path[PATH_MAX], dev[32], mnt[PATH_MAX], src[PATH_MAX];
	char *line = NULL, *tail;
	size_t cap = 0;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/self/mountinfo", proc);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (!found && getline(&line, &cap, f) > 0) {
		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT ... - FSTYPE SOURCE OPTIONS */
		if (sscanf(line, "%*s %*s %31s %*s %4095s", dev, mnt) != 2)
			continue;
		tail = strstr(line, " - ");
		found = !strcmp(dev, majmin) ||
			(tail && sscanf(tail, " - %*s %4095s", src) == 1 &&
			 !strncmp(src, "/dev/", 5) && !strcmp(src + 5, name));
		if (found)
			snprintf(where, size, "%s", mnt);
	}
	free(line);
	fclose(f);
	return found;
}

/*
 * Whether the block device @name is an active swap area in @proc/swaps
 * (by its /dev name): 1 or 0. A kernel without swap has no such file.
 */
static int swapping(const char *proc, const char *name)
{
	char path[PATH_MAX], file[PATH_MAX];
	char *line = NULL, *base;
	size_t cap = 0;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/swaps", proc);
	f = fopen(path, "r");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (!found && getline(&line, &cap, f) > 0) {
		if (sscanf(line, "%4095s", file) != 1 || file[0] != '/')
			continue;
		base = strrchr(file, '/') + 1;
		found = !strcmp(base, name);
	}
	free(line);
	fclose(f);
	return found;
}

/* The first device stacked on the block device in @dir (its holders/), into @buf: 1 or 0. */
static int held(const char *dir, char *buf, size_t size)
{
	char path[PATH_MAX];
	struct dirent *e;
	int found = 0;
	DIR *d;

	if ((size_t)snprintf(path, sizeof(path), "%s/holders", dir) >= sizeof(path))
		return 0;
	d = opendir(path);
	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(buf, size, "%s", e->d_name);
		found = 1;
	}
	closedir(d);
	return found;
}

/*
 * Whether the block device @name belongs to a mounted btrfs filesystem,
 * which lists its devices in @sysfs/fs/btrfs/UUID/devices/ (all of them,
 * also those whose number mountinfo does not show): 1 or 0.
 */
static int btrfs_member(const char *sysfs, const char *name)
{
	char pattern[PATH_MAX];
	glob_t g;
	int found;

	if ((size_t)snprintf(pattern, sizeof(pattern), "%s/fs/btrfs/*/devices/%s", sysfs,
			     name) >= sizeof(pattern))
		return 0;
	found = !glob(pattern, GLOB_NOSORT, NULL, &g);
	if (found)
		globfree(&g);
	return found;
}

/* Whether the block device @name, whose sysfs directory is @dir, is in use. */
static int block_in_use(const char *sysfs, const char *proc, const char *dir, const char *name,
			char **why)
{
	char path[PATH_MAX], majmin[32], what[PATH_MAX];
	int rc;

	if ((size_t)snprintf(path, sizeof(path), "%s/dev", dir) >= sizeof(path) ||
	    read_line(path, majmin, sizeof(majmin)))
		return 0;
	rc = mounted(proc, name, majmin, what, sizeof(what));
	if (rc < 0) {
		snprintf(path, sizeof(path), "%s/self/mountinfo", proc);
		return asprintf(why, "cannot tell what is mounted: %s: %s", path,
				strerror(-rc)) < 0 ? -ENOMEM : rc;
	}
	if (rc)
		return asprintf(why, !strcmp(what, "/") ? "%s holds the root filesystem" :
				"%s is mounted on %s", name, what) < 0 ? -ENOMEM : 1;
	rc = swapping(proc, name);
	if (rc < 0)
		return asprintf(why, "cannot tell what swaps: %s/swaps: %s", proc,
				strerror(-rc)) < 0 ? -ENOMEM : rc;
	if (rc)
		return asprintf(why, "%s is an active swap area", name) < 0 ? -ENOMEM : 1;
	if (btrfs_member(sysfs, name))
		return asprintf(why, "%s is a device of a mounted btrfs filesystem",
				name) < 0 ? -ENOMEM : 1;
	if (held(dir, what, sizeof(what)))
		return asprintf(why, "%s is in use by %s", name, what) < 0 ? -ENOMEM : 1;
	return 0;
}

/*
 * Whether the function @slot holds a block device in use: 0; 1 with the
 * reason in *@why ("sda1 is mounted on /home"); or -errno with the reason
 * in *@why when it cannot tell. *@why is malloc()ed, and NULL with 0.
 */
int inuse_why(const char *sysfs, const char *proc, const char *slot, char **why)
{
	char fn[PATH_MAX], path[PATH_MAX], real[PATH_MAX];
	struct dirent *e;
	size_t len;
	int rc = 0;
	DIR *d;

	*why = NULL;
	snprintf(path, sizeof(path), "%s/bus/pci/devices/%s", sysfs, slot);
	if (!realpath(path, fn))
		return 0;	/* gone: the write reports it */
	len = strlen(fn);
	snprintf(path, sizeof(path), "%s/class/block", sysfs);
	d = opendir(path);
	if (!d && errno == ENOENT)
		return 0;	/* no block devices at all */
	if (!d) {
		rc = -errno;
		return asprintf(why, "cannot tell which disks it has: %s: %s", path,
				strerror(-rc)) < 0 ? -ENOMEM : rc;
	}
	while (!rc && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/class/block/%s", sysfs,
				     e->d_name) >= sizeof(path) ||
		    !realpath(path, real) || strncmp(real, fn, len) || real[len] != '/')
			continue;
		rc = block_in_use(sysfs, proc, real, e->d_name, why);
	}
	closedir(d);
	return rc;
}
