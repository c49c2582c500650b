// SPDX-License-Identifier: GPL-2.0
/*
 * pci-mwi-sim: an emulated PCI bus with devices of every MWI behaviour.
 *
 * QEMU's device models all refuse Memory-Write-and-Invalidate, so on their
 * own they cannot show the success path of pci_set_mwi(), a device whose
 * MWI bit is stuck on, a cache line size register that is read-only, or a
 * config access that fails. This module registers its own PCI root bus, in
 * a domain above 0xffff like drivers/pci/controller/vmd.c, whose pci_ops
 * emulate the config space of functions with those behaviours, and lets a
 * test inject faults at run time through debugfs.
 *
 * Documentation/emulator.md in the pci-mwi project describes the
 * personalities, the debugfs knobs and the test matrix.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/idr.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/pm_domain.h>
#include <linux/pm_runtime.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/version.h>
#include <linux/vmalloc.h>

#define SIM_VENDOR		0x1b36	/* Red Hat, Inc.: QEMU's own vendor ID */
#define SIM_DEVICE_BASE		0xe000	/* + personality */
#define SIM_MAX_FNS		256
#define SIM_CFG_SIZE		256
#define SIM_PCIE_CAP		0x40
#define SIM_AF_CAP		0x40	/* "flr" only: the Advanced Features capability */
#define SIM_INTX_PERIOD_NS	(100 * NSEC_PER_USEC)
#define SIM_INTX_WINDOW_US	200

enum sim_kind {
	SIM_ACCEPTS,	/* MWI bit and cache line size writable */
	SIM_REFUSES,	/* MWI bit hardwired to 0, like every QEMU device */
	SIM_STUCK,	/* MWI bit hardwired to 1 */
	SIM_CLS_RO,	/* cache line size reads 0 and ignores writes */
	SIM_CLS_ODD,	/* cache line size starts at 96 bytes; MWI writable */
	SIM_PCIE,	/* PCI Express capability, MWI hardwired to 0 */
	SIM_BRIDGE,	/* PCI-to-PCI bridge with an "accepts" child */
	SIM_RTL8168,	/* "pcie" with the IDs of a Realtek RTL8168 NIC */
	SIM_FLR,	/* "accepts" with a conventional PCI FLR (PCI_CAP_ID_AF) */
	SIM_NR_KINDS,
};

static const char * const sim_kind_names[SIM_NR_KINDS] = {
	[SIM_ACCEPTS] = "accepts",
	[SIM_REFUSES] = "refuses",
	[SIM_STUCK] = "stuck",
	[SIM_CLS_RO] = "cls-ro",
	[SIM_CLS_ODD] = "cls-odd",
	[SIM_PCIE] = "pcie",
	[SIM_BRIDGE] = "bridge",
	[SIM_RTL8168] = "rtl8168",
	[SIM_FLR] = "flr",
};

/* PCIBIOS errors a test can inject, by the name used in debugfs. */
static const struct {
	const char *name;
	int code;
} sim_errors[] = {
	{ "func_not_supported", PCIBIOS_FUNC_NOT_SUPPORTED },
	{ "bad_vendor_id", PCIBIOS_BAD_VENDOR_ID },
	{ "device_not_found", PCIBIOS_DEVICE_NOT_FOUND },
	{ "bad_register_number", PCIBIOS_BAD_REGISTER_NUMBER },
	{ "set_failed", PCIBIOS_SET_FAILED },
	{ "buffer_too_small", PCIBIOS_BUFFER_TOO_SMALL },
};

enum sim_knob_id {
	K_PERSONALITY, K_COMMAND, K_CLS, K_FAIL_READS, K_FAIL_WRITES, K_FAIL_CODE,
	K_VANISH, K_DROP_WRITES, K_READS, K_WRITES, K_API, K_PROBE_RESULT,
	K_FAIL_WHERE, K_FAIL_AFTER, K_INTX_STORM, K_COLD, K_D3COLD, K_OLD_PROBE,
	K_BLOCK_CFG, K_PROBE_DELAY, K_FLRS, SIM_NR_KNOBS,
};

static const struct {
	const char *name;
	umode_t mode;
} sim_knob_info[SIM_NR_KNOBS] = {
	[K_PERSONALITY] = { "personality", 0400 },
	[K_COMMAND] = { "command", 0400 },
	[K_CLS] = { "cache_line_size", 0400 },
	[K_FAIL_READS] = { "fail_reads", 0600 },
	[K_FAIL_WRITES] = { "fail_writes", 0600 },
	[K_FAIL_CODE] = { "fail_code", 0600 },
	[K_VANISH] = { "vanish", 0600 },
	[K_DROP_WRITES] = { "drop_writes", 0600 },
	[K_READS] = { "reads", 0600 },
	[K_WRITES] = { "writes", 0600 },
	[K_API] = { "api", 0600 },
	[K_PROBE_RESULT] = { "probe_result", 0400 },
	[K_FAIL_WHERE] = { "fail_where", 0600 },
	[K_FAIL_AFTER] = { "fail_after", 0600 },
	[K_INTX_STORM] = { "intx_storm", 0600 },
	[K_COLD] = { "cold_when_suspended", 0600 },
	[K_D3COLD] = { "d3cold", 0600 },
	[K_OLD_PROBE] = { "old_probe", 0400 },
	[K_BLOCK_CFG] = { "block_cfg", 0600 },
	[K_PROBE_DELAY] = { "probe_delay_ms", 0600 },
	[K_FLRS] = { "flrs", 0400 },
};

struct sim_fn;

struct sim_knob {
	struct sim_fn *fn;
	enum sim_knob_id id;
};

/* One emulated function. Everything but the knobs is under sim.lock. */
struct sim_fn {
	enum sim_kind kind;
	u8 devfn;
	struct sim_fn *child;		/* a bridge's device on its secondary bus */
	struct sim_fn *parent;		/* the bridge a child sits behind */
	u8 cfg[SIM_CFG_SIZE];
	unsigned int fail_reads, fail_writes;
	int fail_where;			/* -1: any register */
	unsigned int fail_after;	/* matching accesses let through first */
	int fail_code;
	bool vanished, drop_writes;
	unsigned long reads, writes;
	bool probed;
	int probe_result;		/* pcim_set_mwi() in sim_probe() */
	bool probe_enabled;		/* pci_mwi_enabled() after it */
	unsigned int probe_delay_ms;	/* sim_probe() sleeps this long after it */
	unsigned long flrs;		/* function level resets done ("flr") */
	const char *old_state;		/* the old-style driver's probe */
	int old_rc;			/* its pci_set_mwi() */
	const char *api_op;		/* last operation through "api" */
	bool api_void;			/* it returns nothing */
	int api_result;
	/*
	 * INTx storm: a timer in hard-IRQ context flips the interrupt status
	 * and masks or unmasks INTx with pci_check_and_(un)mask_intx(), as
	 * uio_pci_generic does; a COMMAND write from elsewhere that changes
	 * DisINTx has lost one of its changes.
	 */
	struct hrtimer intx_timer;
	struct pci_dev *intx_pdev;
	bool intx_storm;
	unsigned long intx_flips, intx_lost;
	/*
	 * D3cold while runtime-suspended: config reads return all ones and
	 * writes are lost, as when the power is off.
	 */
	struct pci_dev *cold_pdev;
	struct pci_dev *blocked_pdev;	/* block_cfg: config access blocked */
	/*
	 * D3cold as a platform would put the function there, which this
	 * guest cannot do: the PCI core sees it in D3cold, and it is off.
	 * Its runtime resume powers it on (sim_pm_domain) with COMMAND and
	 * the cache line size reset, for the PCI core to restore.
	 */
	bool d3cold;
	struct sim_knob knobs[SIM_NR_KNOBS];
};

static struct {
	raw_spinlock_t lock;	/* config space, faults, counters: taken under pci_lock */
	struct pci_sysdata sysdata;
	struct resource busn;
	struct pci_bus *bus;
	struct sim_fn *fns;		/* root functions, then bridge children */
	int nr_fns;
	struct sim_fn *root[256];	/* root bus functions by devfn */
	struct dentry *debugfs;
} sim;

static char *devices = "accepts,refuses,stuck,cls-ro,cls-odd,pcie,bridge";
module_param(devices, charp, 0444);
MODULE_PARM_DESC(devices,
		 "comma-separated personalities, NAME or NAME*COUNT: accepts, refuses, stuck, cls-ro, cls-odd, pcie, bridge, rtl8168 (at most 256 functions)");

static void sim_put16(u8 *cfg, int where, u16 val)
{
	cfg[where] = val & 0xff;
	cfg[where + 1] = val >> 8;
}

static void sim_init_cfg(struct sim_fn *fn, bool multifunction)
{
	u8 *cfg = fn->cfg;

	sim_put16(cfg, PCI_VENDOR_ID, SIM_VENDOR);
	sim_put16(cfg, PCI_DEVICE_ID, SIM_DEVICE_BASE + fn->kind);
	cfg[PCI_REVISION_ID] = 1;
	cfg[PCI_CLASS_DEVICE] = 0x80;		/* other system peripheral */
	cfg[PCI_CLASS_DEVICE + 1] = 0x08;
	cfg[PCI_HEADER_TYPE] = multifunction ? 0x80 : 0;

	switch (fn->kind) {
	case SIM_STUCK:
		cfg[PCI_COMMAND] = PCI_COMMAND_INVALIDATE;
		break;
	case SIM_CLS_ODD:
		cfg[PCI_CACHE_LINE_SIZE] = 24;	/* 96 bytes: not a multiple of 64 */
		break;
	case SIM_RTL8168:
		sim_put16(cfg, PCI_VENDOR_ID, PCI_VENDOR_ID_REALTEK);
		sim_put16(cfg, PCI_DEVICE_ID, 0x8168);
		cfg[PCI_CLASS_DEVICE] = PCI_CLASS_NETWORK_ETHERNET & 0xff;
		cfg[PCI_CLASS_DEVICE + 1] = PCI_CLASS_NETWORK_ETHERNET >> 8;
		fallthrough;
	case SIM_PCIE:
		sim_put16(cfg, PCI_STATUS, PCI_STATUS_CAP_LIST);
		cfg[PCI_CAPABILITY_LIST] = SIM_PCIE_CAP;
		cfg[SIM_PCIE_CAP + PCI_CAP_LIST_ID] = PCI_CAP_ID_EXP;
		sim_put16(cfg, SIM_PCIE_CAP + PCI_EXP_FLAGS,
			  2 | (PCI_EXP_TYPE_ENDPOINT << 4));
		break;
	case SIM_FLR:
		sim_put16(cfg, PCI_STATUS, PCI_STATUS_CAP_LIST);
		cfg[PCI_CAPABILITY_LIST] = SIM_AF_CAP;
		cfg[SIM_AF_CAP + PCI_CAP_LIST_ID] = PCI_CAP_ID_AF;
		cfg[SIM_AF_CAP + PCI_AF_LENGTH] = 6;
		cfg[SIM_AF_CAP + PCI_AF_CAP] = PCI_AF_CAP_TP | PCI_AF_CAP_FLR;
		break;
	case SIM_BRIDGE:
		cfg[PCI_CLASS_DEVICE] = PCI_CLASS_BRIDGE_PCI & 0xff;
		cfg[PCI_CLASS_DEVICE + 1] = PCI_CLASS_BRIDGE_PCI >> 8;
		cfg[PCI_HEADER_TYPE] |= PCI_HEADER_TYPE_BRIDGE;
		break;
	default:
		break;
	}
}

static bool sim_mwi_writable(const struct sim_fn *fn)
{
	return fn->kind == SIM_ACCEPTS || fn->kind == SIM_CLS_ODD ||
	       fn->kind == SIM_CLS_RO || fn->kind == SIM_BRIDGE ||
	       fn->kind == SIM_FLR;
}

/*
 * A function level reset through the AF capability: the function's
 * registers go back to their power-on values at once (no transaction is
 * ever pending), for the PCI core to restore.
 */
static void sim_af_flr(struct sim_fn *fn)
{
	fn->cfg[PCI_COMMAND] = 0;
	fn->cfg[PCI_COMMAND + 1] = 0;
	fn->cfg[PCI_CACHE_LINE_SIZE] = 0;
	fn->cfg[PCI_LATENCY_TIMER] = 0;
	fn->flrs++;
}

/* Store one byte written by the kernel, as the hardware would. */
static void sim_write_byte(struct sim_fn *fn, int where, u8 val)
{
	bool bridge = fn->kind == SIM_BRIDGE;

	if (fn->kind == SIM_FLR && where == SIM_AF_CAP + PCI_AF_CTRL) {
		if (val & PCI_AF_CTRL_FLR)
			sim_af_flr(fn);
		return;
	}
	switch (where) {
	case PCI_COMMAND:
		val &= PCI_COMMAND_IO | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER |
		       PCI_COMMAND_PARITY |
		       (sim_mwi_writable(fn) ? PCI_COMMAND_INVALIDATE : 0);
		if (fn->kind == SIM_STUCK)
			val |= PCI_COMMAND_INVALIDATE;
		break;
	case PCI_COMMAND + 1:
		val &= (PCI_COMMAND_SERR | PCI_COMMAND_INTX_DISABLE) >> 8;
		if (fn->intx_storm && !in_hardirq() &&
		    ((val ^ fn->cfg[where]) & (PCI_COMMAND_INTX_DISABLE >> 8)))
			fn->intx_lost++;
		break;
	case PCI_CACHE_LINE_SIZE:
		if (fn->kind == SIM_CLS_RO)
			return;
		break;
	case PCI_LATENCY_TIMER:
	case PCI_INTERRUPT_LINE:
		break;
	default:
		/* A bridge's bus numbers and windows are plain registers. */
		if (bridge && ((where >= PCI_PRIMARY_BUS && where <= PCI_SEC_LATENCY_TIMER) ||
			       where == PCI_IO_BASE || where == PCI_IO_LIMIT ||
			       (where >= PCI_MEMORY_BASE && where < PCI_CAPABILITY_LIST) ||
			       where == PCI_BRIDGE_CONTROL || where == PCI_BRIDGE_CONTROL + 1))
			break;
		return;		/* read-only, or not implemented */
	}
	fn->cfg[where] = val;
}

/* The function at @devfn on @bus, or NULL. Called under sim.lock. */
static struct sim_fn *sim_find(struct pci_bus *bus, unsigned int devfn)
{
	int i;

	if (pci_is_root_bus(bus))
		return sim.root[devfn];
	if (devfn)
		return NULL;
	for (i = 0; i < sim.nr_fns; i++) {
		struct sim_fn *fn = &sim.fns[i];

		if (fn->child && fn->cfg[PCI_SECONDARY_BUS] == bus->number)
			return fn->child;
	}
	return NULL;
}

/*
 * The function is powered off: in D3cold, or runtime-suspended with
 * cold_when_suspended.
 */
static bool sim_cold(const struct sim_fn *fn)
{
	return fn->d3cold ||
	       (fn->cold_pdev && pm_runtime_suspended(&fn->cold_pdev->dev));
}

/*
 * The function a config access is for, counted, with one injected failure
 * taken. NULL (and @rc set) when the access fails. Called under sim.lock.
 */
static struct sim_fn *sim_access(struct pci_bus *bus, unsigned int devfn,
				 int where, int size, bool write, int *rc)
{
	struct sim_fn *fn = sim_find(bus, devfn);
	unsigned int *fail;

	if (!fn || where + size > SIM_CFG_SIZE) {
		*rc = fn ? PCIBIOS_BAD_REGISTER_NUMBER : PCIBIOS_DEVICE_NOT_FOUND;
		return NULL;
	}
	if (write)
		fn->writes++;
	else
		fn->reads++;
	fail = write ? &fn->fail_writes : &fn->fail_reads;
	if (*fail && (fn->fail_where < 0 || fn->fail_where == where)) {
		if (fn->fail_after) {
			fn->fail_after--;
		} else {
			(*fail)--;
			*rc = fn->fail_code;
			return NULL;
		}
	}
	*rc = PCIBIOS_SUCCESSFUL;
	return fn;
}

static int sim_read(struct pci_bus *bus, unsigned int devfn, int where,
		    int size, u32 *val)
{
	struct sim_fn *fn;
	unsigned long flags;
	bool widen = false;
	int i, rc;

	raw_spin_lock_irqsave(&sim.lock, flags);
	fn = sim_access(bus, devfn, where, size, false, &rc);
	if (!fn) {
		*val = ~0U;
	} else if (fn->vanished || sim_cold(fn)) {
		*val = size == 4 ? ~0U : (1U << (8 * size)) - 1;
	} else {
		*val = 0;
		for (i = 0; i < size; i++)
			*val |= (u32)fn->cfg[where + i] << (8 * i);
		widen = fn->intx_storm && where == PCI_COMMAND && !in_hardirq();
	}
	raw_spin_unlock_irqrestore(&sim.lock, flags);
	/*
	 * During an INTx storm, a COMMAND read outside hard-IRQ context
	 * takes long enough for the timer to fire before the caller can
	 * write the value back, unless the caller has interrupts off.
	 */
	if (widen)
		udelay(SIM_INTX_WINDOW_US);
	return rc;
}

static int sim_write(struct pci_bus *bus, unsigned int devfn, int where,
		     int size, u32 val)
{
	struct sim_fn *fn;
	unsigned long flags;
	int i, rc;

	raw_spin_lock_irqsave(&sim.lock, flags);
	fn = sim_access(bus, devfn, where, size, true, &rc);
	if (fn && !fn->vanished && !fn->drop_writes && !sim_cold(fn)) {
		for (i = 0; i < size; i++)
			sim_write_byte(fn, where + i, val >> (8 * i));
	}
	raw_spin_unlock_irqrestore(&sim.lock, flags);
	return rc;
}

static struct pci_ops sim_ops = {
	.read = sim_read,
	.write = sim_write,
};

/* The emulated function behind @pdev, or NULL if it is not one of ours. */
static struct sim_fn *sim_fn_of(struct pci_dev *pdev)
{
	struct sim_fn *fn = NULL;
	unsigned long flags;

	if (!sim.bus || pci_domain_nr(pdev->bus) != sim.sysdata.domain)
		return NULL;
	raw_spin_lock_irqsave(&sim.lock, flags);
	fn = sim_find(pdev->bus, pdev->devfn);
	raw_spin_unlock_irqrestore(&sim.lock, flags);
	return fn;
}

/*
 * The API test driver: bind it to a function with driver_override. Its
 * probe asks for MWI the managed way, as drivers do, and records what
 * pcim_set_mwi() returned (0, or a negative errno) and what
 * pci_mwi_enabled() then says; MWI being optional, the probe succeeds
 * either way.
 */
static int sim_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct sim_fn *fn = sim_fn_of(pdev);
	unsigned int delay;
	bool enabled;
	int rc;

	if (!fn)
		return -ENODEV;
	rc = pcim_enable_device(pdev);
	if (rc)
		return rc;
	rc = pcim_set_mwi(pdev);
	enabled = pci_mwi_enabled(pdev);
	raw_spin_lock_irq(&sim.lock);
	fn->probed = true;
	fn->probe_result = rc;
	fn->probe_enabled = enabled;
	delay = fn->probe_delay_ms;
	raw_spin_unlock_irq(&sim.lock);
	/* A probe that goes on after choosing MWI, e.g. loading firmware. */
	if (delay)
		msleep(delay);
	return 0;
}

static const struct pci_device_id sim_ids[] = {
	{ }	/* binds only through driver_override */
};

static struct pci_driver sim_driver = {
	.name = "pci-mwi-sim",
	.id_table = sim_ids,
	.probe = sim_probe,
};

static void sim_old_set(struct sim_fn *fn, const char *state, int rc)
{
	raw_spin_lock_irq(&sim.lock);
	fn->old_state = state;
	fn->old_rc = rc;
	raw_spin_unlock_irq(&sim.lock);
}

/*
 * The old-style caller, written as 8139cp and efct were: the probe
 * allocates its state, unwinds it on any non-zero return of
 * pci_set_mwi() and returns that value. Were pci_set_mwi() to return a
 * positive value for a refusal, the state would be freed and the driver
 * still bound, since the driver core takes a positive probe return as
 * success: old_probe then reads "unwound N" while the function has this
 * driver. With 0 or a negative errno it reads "bound" or the driver is
 * not bound.
 */
struct sim_old {
	struct sim_fn *fn;
};

static int sim_old_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct sim_fn *fn = sim_fn_of(pdev);
	struct sim_old *old;
	int rc;

	if (!fn)
		return -ENODEV;
	old = kzalloc(sizeof(*old), GFP_KERNEL);
	if (!old)
		return -ENOMEM;
	old->fn = fn;
	pci_set_drvdata(pdev, old);

	rc = pci_set_mwi(pdev);
	if (rc)
		goto err_free;
	sim_old_set(fn, "bound", 0);
	return rc;

err_free:
	pci_set_drvdata(pdev, NULL);
	kfree(old);
	sim_old_set(fn, "unwound", rc);
	return rc;
}

static void sim_old_remove(struct pci_dev *pdev)
{
	struct sim_old *old = pci_get_drvdata(pdev);

	pci_clear_mwi(pdev);
	if (old) {
		sim_old_set(old->fn, "removed", 0);
		kfree(old);
	}
}

static struct pci_driver sim_old_driver = {
	.name = "pci-mwi-sim-old",
	.id_table = sim_ids,
	.probe = sim_old_probe,
	.remove = sim_old_remove,
};

/* A driver that never asks for MWI. */
static int sim_noask_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	return sim_fn_of(pdev) ? 0 : -ENODEV;
}

static struct pci_driver sim_noask_driver = {
	.name = "pci-mwi-sim-noask",
	.id_table = sim_ids,
	.probe = sim_noask_probe,
};

#if IS_ENABLED(CONFIG_BLOCK)
/*
 * A disk controller's driver, for mwictl --rebind's in-use check: its
 * probe adds a 1 MiB RAM disk, "simdiskN" (N from 0, the first free), as a
 * child of the function, as a storage driver's disk would sit below its
 * controller; a test makes a filesystem on it and mounts it, or swaps on
 * it. It never asks for MWI. Unbinding it deletes the disk under its users,
 * as unbinding a real controller's driver would; the disk's memory and its
 * name go when its last user does (free_disk), as sd's index does, so a
 * probe while the old disk is still mounted gets another name.
 */
#define SIM_DISK_BYTES		SZ_1M

static DEFINE_IDA(sim_disk_ida);

struct sim_disk {
	struct gendisk *disk;
	u8 *data;
	int id;
};

static void sim_disk_submit_bio(struct bio *bio)
{
	struct sim_disk *sd = bio->bi_bdev->bd_disk->private_data;
	sector_t sector = bio->bi_iter.bi_sector;
	struct bvec_iter iter;
	struct bio_vec bvec;

	switch (bio_op(bio)) {
	case REQ_OP_READ:
	case REQ_OP_WRITE:
		break;
	case REQ_OP_FLUSH:
		bio_endio(bio);		/* RAM: nothing to flush */
		return;
	default:
		bio->bi_status = BLK_STS_NOTSUPP;
		bio_endio(bio);
		return;
	}
	/* the block layer has checked the bio against the capacity */
	bio_for_each_segment(bvec, bio, iter) {
		size_t off = (size_t)sector << SECTOR_SHIFT;
		void *p;

		p = bvec_kmap_local(&bvec);
		if (op_is_write(bio_op(bio)))
			memcpy(sd->data + off, p, bvec.bv_len);
		else
			memcpy(p, sd->data + off, bvec.bv_len);
		kunmap_local(p);
		sector += bvec.bv_len >> SECTOR_SHIFT;
	}
	bio_endio(bio);
}

static void sim_disk_free(struct gendisk *disk)
{
	struct sim_disk *sd = disk->private_data;

	vfree(sd->data);
	ida_free(&sim_disk_ida, sd->id);
	kfree(sd);
}

static const struct block_device_operations sim_disk_fops = {
	.owner = THIS_MODULE,
	.submit_bio = sim_disk_submit_bio,
	.free_disk = sim_disk_free,
};

static int sim_disk_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct sim_disk *sd;
	int rc;

	if (!sim_fn_of(pdev))
		return -ENODEV;
	sd = kzalloc(sizeof(*sd), GFP_KERNEL);
	if (!sd)
		return -ENOMEM;
	sd->id = ida_alloc(&sim_disk_ida, GFP_KERNEL);
	if (sd->id < 0) {
		rc = sd->id;
		goto err_sd;
	}
	sd->data = vzalloc(SIM_DISK_BYTES);
	if (!sd->data) {
		rc = -ENOMEM;
		goto err_id;
	}
	sd->disk = blk_alloc_disk(NULL, NUMA_NO_NODE);
	if (IS_ERR(sd->disk)) {
		rc = PTR_ERR(sd->disk);
		goto err_data;
	}
	sd->disk->fops = &sim_disk_fops;
	sd->disk->private_data = sd;
	sd->disk->flags |= GENHD_FL_NO_PART;
	snprintf(sd->disk->disk_name, DISK_NAME_LEN, "simdisk%d", sd->id);
	set_capacity(sd->disk, SIM_DISK_BYTES >> SECTOR_SHIFT);
	rc = device_add_disk(&pdev->dev, sd->disk, NULL);
	if (rc)
		goto err_disk;
	pci_set_drvdata(pdev, sd->disk);
	return 0;

err_disk:
	put_disk(sd->disk);	/* never added: no free_disk */
err_data:
	vfree(sd->data);
err_id:
	ida_free(&sim_disk_ida, sd->id);
err_sd:
	kfree(sd);
	return rc;
}

static void sim_disk_remove(struct pci_dev *pdev)
{
	struct gendisk *disk = pci_get_drvdata(pdev);

	del_gendisk(disk);
	put_disk(disk);		/* its last user's put calls free_disk */
}

static struct pci_driver sim_disk_driver = {
	.name = "pci-mwi-sim-disk",
	.id_table = sim_ids,
	.probe = sim_disk_probe,
	.remove = sim_disk_remove,
};
#endif /* CONFIG_BLOCK */

/* The test drivers; each binds only through driver_override. */
static struct pci_driver *const sim_drivers[] = {
	&sim_driver, &sim_old_driver, &sim_noask_driver,
#if IS_ENABLED(CONFIG_BLOCK)
	&sim_disk_driver,
#endif /* CONFIG_BLOCK */
};

static void sim_unregister_drivers(int n)
{
	while (n--)
		pci_unregister_driver(sim_drivers[n]);
}

static int sim_register_drivers(void)
{
	int i, rc;

	for (i = 0; i < ARRAY_SIZE(sim_drivers); i++) {
		rc = pci_register_driver(sim_drivers[i]);
		if (rc) {
			sim_unregister_drivers(i);
			return rc;
		}
	}
	return 0;
}

/* ---- debugfs ---- */

static const char *sim_error_name(int code)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(sim_errors); i++)
		if (sim_errors[i].code == code)
			return sim_errors[i].name;
	return "?";
}

static struct pci_dev *sim_pci_dev(struct sim_fn *fn)
{
	unsigned int busnr = 0;

	if (fn->parent)
		busnr = fn->parent->cfg[PCI_SECONDARY_BUS];
	return pci_get_domain_bus_and_slot(sim.sysdata.domain, busnr, fn->devfn);
}

enum sim_api_op { API_SET, API_TRY_SET, API_CLEAR, API_CACHELINE, API_ENABLED };

static const char * const sim_api_ops[] = {
	[API_SET] = "set",
	[API_TRY_SET] = "try_set",
	[API_CLEAR] = "clear",
	[API_CACHELINE] = "cacheline",
	[API_ENABLED] = "enabled",
};

/*
 * Call one PCI core MWI function on the device, as a driver would. Not
 * inlined, so that the pci_mwi_request trace event names this function as
 * the requester. pci_try_set_mwi() and pci_clear_mwi() return nothing; they
 * are called as statements, which compiles whatever they return.
 */
static noinline int sim_call_api(struct sim_fn *fn, const char *op)
{
	struct pci_dev *pdev;
	int i, rc = 0;

	i = sysfs_match_string(sim_api_ops, op);
	if (i < 0)
		return i;
	pdev = sim_pci_dev(fn);
	if (!pdev)
		return -ENODEV;
	device_lock(&pdev->dev);
	switch (i) {
	case API_SET:
		rc = pci_set_mwi(pdev);
		break;
	case API_TRY_SET:
		pci_try_set_mwi(pdev);
		break;
	case API_CLEAR:
		pci_clear_mwi(pdev);
		break;
	case API_ENABLED:
		rc = pci_mwi_enabled(pdev);
		break;
	default:
		rc = pci_set_cacheline_size(pdev);
		break;
	}
	device_unlock(&pdev->dev);
	pci_dev_put(pdev);
	raw_spin_lock_irq(&sim.lock);
	fn->api_op = sim_api_ops[i];
	fn->api_void = i == API_TRY_SET || i == API_CLEAR;
	fn->api_result = rc;
	raw_spin_unlock_irq(&sim.lock);
	return 0;
}

static ssize_t sim_knob_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct sim_knob *knob = file->private_data;
	struct sim_fn *fn = knob->fn;
	char buf[64];
	int len;

	raw_spin_lock_irq(&sim.lock);
	switch (knob->id) {
	case K_PERSONALITY:
		len = scnprintf(buf, sizeof(buf), "%s\n", sim_kind_names[fn->kind]);
		break;
	case K_COMMAND:
		len = scnprintf(buf, sizeof(buf), "0x%04x\n",
				fn->cfg[PCI_COMMAND] | fn->cfg[PCI_COMMAND + 1] << 8);
		break;
	case K_CLS:
		len = scnprintf(buf, sizeof(buf), "%u\n", fn->cfg[PCI_CACHE_LINE_SIZE] * 4);
		break;
	case K_FAIL_READS:
		len = scnprintf(buf, sizeof(buf), "%u\n", fn->fail_reads);
		break;
	case K_FAIL_WRITES:
		len = scnprintf(buf, sizeof(buf), "%u\n", fn->fail_writes);
		break;
	case K_FAIL_CODE:
		len = scnprintf(buf, sizeof(buf), "%s\n", sim_error_name(fn->fail_code));
		break;
	case K_VANISH:
		len = scnprintf(buf, sizeof(buf), "%d\n", fn->vanished);
		break;
	case K_DROP_WRITES:
		len = scnprintf(buf, sizeof(buf), "%d\n", fn->drop_writes);
		break;
	case K_READS:
		len = scnprintf(buf, sizeof(buf), "%lu\n", fn->reads);
		break;
	case K_WRITES:
		len = scnprintf(buf, sizeof(buf), "%lu\n", fn->writes);
		break;
	case K_API:
		if (!fn->api_op)
			len = scnprintf(buf, sizeof(buf), "none\n");
		else if (fn->api_void)
			len = scnprintf(buf, sizeof(buf), "%s void\n", fn->api_op);
		else
			len = scnprintf(buf, sizeof(buf), "%s %d\n", fn->api_op,
					fn->api_result);
		break;
	case K_FAIL_WHERE:
		len = fn->fail_where < 0 ? scnprintf(buf, sizeof(buf), "any\n") :
					   scnprintf(buf, sizeof(buf), "%d\n", fn->fail_where);
		break;
	case K_FAIL_AFTER:
		len = scnprintf(buf, sizeof(buf), "%u\n", fn->fail_after);
		break;
	case K_INTX_STORM:
		len = scnprintf(buf, sizeof(buf), "%d %lu %lu\n", fn->intx_storm,
				fn->intx_flips, fn->intx_lost);
		break;
	case K_COLD:
		len = scnprintf(buf, sizeof(buf), "%d\n", !!fn->cold_pdev);
		break;
	case K_D3COLD:
		len = scnprintf(buf, sizeof(buf), "%d\n", fn->d3cold);
		break;
	case K_BLOCK_CFG:
		len = scnprintf(buf, sizeof(buf), "%d\n", !!fn->blocked_pdev);
		break;
	case K_PROBE_DELAY:
		len = scnprintf(buf, sizeof(buf), "%u\n", fn->probe_delay_ms);
		break;
	case K_FLRS:
		len = scnprintf(buf, sizeof(buf), "%lu\n", fn->flrs);
		break;
	case K_OLD_PROBE:
		if (!fn->old_state)
			len = scnprintf(buf, sizeof(buf), "none\n");
		else if (!strcmp(fn->old_state, "unwound"))
			len = scnprintf(buf, sizeof(buf), "unwound %d\n", fn->old_rc);
		else
			len = scnprintf(buf, sizeof(buf), "%s\n", fn->old_state);
		break;
	default:
		len = fn->probed ? scnprintf(buf, sizeof(buf), "%d %d\n", fn->probe_result,
					     fn->probe_enabled) :
				   scnprintf(buf, sizeof(buf), "none\n");
		break;
	}
	raw_spin_unlock_irq(&sim.lock);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

/* 0 or 1, and nothing else. */
static int sim_parse_bool(const char *buf, bool *val)
{
	unsigned int v;

	if (kstrtouint(buf, 10, &v) || v > 1)
		return -EINVAL;
	*val = v;
	return 0;
}

/* "any", or a config register offset (0-255, decimal or 0x hex). */
static int sim_parse_where(const char *buf, int *where)
{
	unsigned int v;

	if (sysfs_streq(buf, "any")) {
		*where = -1;
		return 0;
	}
	if (kstrtouint(buf, 0, &v) || v >= SIM_CFG_SIZE)
		return -EINVAL;
	*where = v;
	return 0;
}

static enum hrtimer_restart sim_intx_tick(struct hrtimer *timer)
{
	struct sim_fn *fn = container_of(timer, struct sim_fn, intx_timer);
	bool pending, changed;
	u16 status;

	raw_spin_lock(&sim.lock);
	status = fn->cfg[PCI_STATUS] | fn->cfg[PCI_STATUS + 1] << 8;
	status ^= PCI_STATUS_INTERRUPT;
	sim_put16(fn->cfg, PCI_STATUS, status);
	pending = status & PCI_STATUS_INTERRUPT;
	raw_spin_unlock(&sim.lock);

	changed = pending ? pci_check_and_mask_intx(fn->intx_pdev) :
			    pci_check_and_unmask_intx(fn->intx_pdev);
	raw_spin_lock(&sim.lock);
	fn->intx_flips += changed;
	raw_spin_unlock(&sim.lock);
	hrtimer_forward_now(timer, ns_to_ktime(SIM_INTX_PERIOD_NS));
	return HRTIMER_RESTART;
}

static int sim_intx_start(struct sim_fn *fn)
{
	struct pci_dev *pdev;

	if (fn->intx_pdev)
		return -EBUSY;
	pdev = sim_pci_dev(fn);
	if (!pdev)
		return -ENODEV;
	fn->intx_pdev = pdev;
	raw_spin_lock_irq(&sim.lock);
	fn->intx_flips = 0;
	fn->intx_lost = 0;
	fn->intx_storm = true;
	raw_spin_unlock_irq(&sim.lock);
	hrtimer_start(&fn->intx_timer, ns_to_ktime(SIM_INTX_PERIOD_NS),
		      HRTIMER_MODE_REL);
	return 0;
}

static int sim_intx_stop(struct sim_fn *fn)
{
	if (!fn->intx_pdev)
		return 0;
	hrtimer_cancel(&fn->intx_timer);
	raw_spin_lock_irq(&sim.lock);
	fn->intx_storm = false;
	raw_spin_unlock_irq(&sim.lock);
	pci_dev_put(fn->intx_pdev);
	fn->intx_pdev = NULL;
	return 0;
}

static int sim_set_cold(struct sim_fn *fn, bool on)
{
	struct pci_dev *pdev = NULL;

	if (on && !fn->cold_pdev) {
		pdev = sim_pci_dev(fn);
		if (!pdev)
			return -ENODEV;
	}
	if (!on && fn->cold_pdev)
		pdev = fn->cold_pdev;
	raw_spin_lock_irq(&sim.lock);
	fn->cold_pdev = on ? (fn->cold_pdev ?: pdev) : NULL;
	raw_spin_unlock_irq(&sim.lock);
	if (!on)
		pci_dev_put(pdev);
	return 0;
}

/*
 * The platform's side of D3cold: a PM domain around the PCI bus's own
 * callbacks whose runtime resume first powers the function on, as an
 * ACPI power resource would. Power-on resets COMMAND and the cache line
 * size; the PCI core's resume then restores what it saved at suspend.
 */
static struct dev_pm_domain sim_pm_domain;

static int sim_runtime_resume(struct device *dev)
{
	struct pci_dev *pdev = to_pci_dev(dev);
	struct sim_fn *fn;

	raw_spin_lock_irq(&sim.lock);
	fn = sim_find(pdev->bus, pdev->devfn);
	if (fn && fn->d3cold) {
		fn->d3cold = false;
		sim_put16(fn->cfg, PCI_COMMAND, 0);
		fn->cfg[PCI_CACHE_LINE_SIZE] = 0;
	}
	raw_spin_unlock_irq(&sim.lock);
	return pci_bus_type.pm->runtime_resume(dev);
}

/*
 * Put the function in D3cold, or back in D0, as a platform power resource
 * would: the PCI core's current_state says so, and while it is off config
 * reads return all ones and writes are lost. Only an unbound function:
 * a PM domain must not change under a driver.
 */
static int sim_set_d3cold(struct sim_fn *fn, bool on)
{
	struct pci_dev *pdev = sim_pci_dev(fn);
	int rc = 0;

	if (!pdev)
		return -ENODEV;
	if (on && !pci_bus_type.pm) {
		pci_dev_put(pdev);
		return -EOPNOTSUPP;
	}
	device_lock(&pdev->dev);
	if (on && pdev->dev.driver) {
		rc = -EBUSY;
		goto out;
	}
	if (on)
		dev_pm_domain_set(&pdev->dev, &sim_pm_domain);
	raw_spin_lock_irq(&sim.lock);
	fn->d3cold = on;
	raw_spin_unlock_irq(&sim.lock);
	pdev->current_state = on ? PCI_D3cold : PCI_D0;
	if (!on)
		dev_pm_domain_set(&pdev->dev, NULL);
out:
	device_unlock(&pdev->dev);
	pci_dev_put(pdev);
	return rc;
}

/* Unload: no function may keep this module's PM domain. */
static void sim_drop_pm_domain(struct sim_fn *fn)
{
	struct pci_dev *pdev = sim_pci_dev(fn);

	if (!pdev)
		return;
	device_lock(&pdev->dev);
	dev_pm_domain_set(&pdev->dev, NULL);
	device_unlock(&pdev->dev);
	pci_dev_put(pdev);
}

static int sim_parse_error(const char *buf, int *code)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(sim_errors); i++) {
		if (sysfs_streq(buf, sim_errors[i].name)) {
			*code = sim_errors[i].code;
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * Block config access to the function as a reset does for its duration
 * (pci_cfg_access_lock(), which pci_dev_lock() takes), until unblocked:
 * the user accessors wait meanwhile. Not under sim.lock: it may sleep.
 */
static int sim_block_cfg(struct sim_fn *fn, bool on)
{
	struct pci_dev *pdev;

	if (on == !!fn->blocked_pdev)
		return 0;
	if (!on) {
		pci_cfg_access_unlock(fn->blocked_pdev);
		pci_dev_put(fn->blocked_pdev);
		fn->blocked_pdev = NULL;
		return 0;
	}
	pdev = sim_pci_dev(fn);
	if (!pdev)
		return -ENODEV;
	pci_cfg_access_lock(pdev);
	fn->blocked_pdev = pdev;
	return 0;
}

/* Validate the whole input first; change nothing when it is bad. */
static ssize_t sim_knob_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	struct sim_knob *knob = file->private_data;
	struct sim_fn *fn = knob->fn;
	char buf[32];
	unsigned int n;
	bool flag;
	int code, rc;

	if (*ppos || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (strlen(buf) != count)
		return -EINVAL;

	if (knob->id == K_API) {
		rc = sim_call_api(fn, buf);
		return rc ? rc : count;
	}
	if (knob->id == K_COLD) {
		rc = sim_parse_bool(buf, &flag);
		if (!rc)
			rc = sim_set_cold(fn, flag);
		return rc ? rc : count;
	}
	if (knob->id == K_D3COLD) {
		rc = sim_parse_bool(buf, &flag);
		if (!rc)
			rc = sim_set_d3cold(fn, flag);
		return rc ? rc : count;
	}
	if (knob->id == K_BLOCK_CFG) {
		rc = sim_parse_bool(buf, &flag);
		if (!rc)
			rc = sim_block_cfg(fn, flag);
		return rc ? rc : count;
	}
	if (knob->id == K_INTX_STORM) {
		rc = sim_parse_bool(buf, &flag);
		if (!rc)
			rc = flag ? sim_intx_start(fn) : sim_intx_stop(fn);
		return rc ? rc : count;
	}

	switch (knob->id) {
	case K_FAIL_WHERE:
		rc = sim_parse_where(buf, &code);
		break;
	case K_FAIL_READS:
	case K_FAIL_WRITES:
	case K_FAIL_AFTER:
	case K_READS:
	case K_WRITES:
	case K_PROBE_DELAY:
		rc = kstrtouint(buf, 10, &n) ? -EINVAL : 0;
		if (!rc && (knob->id == K_READS || knob->id == K_WRITES) && n)
			rc = -EINVAL;	/* counters can only be reset */
		if (!rc && knob->id == K_PROBE_DELAY && n > 10000)
			rc = -EINVAL;	/* at most 10 s */
		break;
	case K_VANISH:
	case K_DROP_WRITES:
		rc = sim_parse_bool(buf, &flag);
		break;
	case K_FAIL_CODE:
		rc = sim_parse_error(buf, &code);
		break;
	default:
		rc = -EPERM;
		break;
	}
	if (rc)
		return rc;

	raw_spin_lock_irq(&sim.lock);
	switch (knob->id) {
	case K_FAIL_READS:
		fn->fail_reads = n;
		break;
	case K_FAIL_WRITES:
		fn->fail_writes = n;
		break;
	case K_READS:
		fn->reads = 0;
		break;
	case K_WRITES:
		fn->writes = 0;
		break;
	case K_VANISH:
		fn->vanished = flag;
		break;
	case K_DROP_WRITES:
		fn->drop_writes = flag;
		break;
	case K_FAIL_WHERE:
		fn->fail_where = code;
		break;
	case K_FAIL_AFTER:
		fn->fail_after = n;
		break;
	case K_PROBE_DELAY:
		fn->probe_delay_ms = n;
		break;
	default:
		fn->fail_code = code;
		break;
	}
	raw_spin_unlock_irq(&sim.lock);
	return count;
}

static const struct file_operations sim_knob_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = sim_knob_read,
	.write = sim_knob_write,
	.llseek = default_llseek,
};

static void sim_debugfs_fn(struct sim_fn *fn)
{
	struct pci_dev *pdev = sim_pci_dev(fn);
	struct dentry *dir;
	int i;

	if (!pdev)
		return;
	dir = debugfs_create_dir(pci_name(pdev), sim.debugfs);
	pci_dev_put(pdev);
	for (i = 0; i < SIM_NR_KNOBS; i++) {
		fn->knobs[i].fn = fn;
		fn->knobs[i].id = i;
		debugfs_create_file(sim_knob_info[i].name, sim_knob_info[i].mode,
				    dir, &fn->knobs[i], &sim_knob_fops);
	}
}

/* The INTx storm's timer: hrtimer_setup() replaced hrtimer_init() in 6.13. */
static void sim_init_timer(struct sim_fn *fn)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(&fn->intx_timer, sim_intx_tick, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL);
#else
	hrtimer_init(&fn->intx_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	fn->intx_timer.function = sim_intx_tick;
#endif
}

/* ---- setup ---- */

static int sim_parse_devices(enum sim_kind *kinds)
{
	char *list, *cur, *word, *star;
	unsigned int count;
	int n = 0, k, rc = 0;

	list = kstrdup(devices, GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	cur = list;
	while ((word = strsep(&cur, ",")) && !rc) {
		count = 1;
		star = strchr(word, '*');
		if (star) {
			*star = '\0';
			if (kstrtouint(star + 1, 10, &count) || !count)
				rc = -EINVAL;
		}
		k = match_string(sim_kind_names, SIM_NR_KINDS, word);
		if (k < 0 || rc || n + count > SIM_MAX_FNS) {
			pr_err("devices=%s: bad personality or count '%s'\n", devices, word);
			rc = -EINVAL;
			break;
		}
		while (count--)
			kinds[n++] = k;
	}
	kfree(list);
	return rc ? rc : n;
}

static int sim_find_free_domain(void)
{
	struct pci_bus *bus = NULL;
	int domain = 0xffff;

	while ((bus = pci_find_next_bus(bus)))
		domain = max_t(int, domain, pci_domain_nr(bus));
	return domain + 1;
}

static int sim_create_functions(void)
{
	enum sim_kind *kinds;
	int n, i, bridges = 0, child;
	bool multi;

	kinds = kcalloc(SIM_MAX_FNS, sizeof(*kinds), GFP_KERNEL);
	if (!kinds)
		return -ENOMEM;
	n = sim_parse_devices(kinds);
	if (n <= 0) {
		kfree(kinds);
		return n ? n : -EINVAL;
	}
	for (i = 0; i < n; i++)
		bridges += kinds[i] == SIM_BRIDGE;
	sim.fns = kcalloc(n + bridges, sizeof(*sim.fns), GFP_KERNEL);
	if (!sim.fns) {
		kfree(kinds);
		return -ENOMEM;
	}
	/* One function per slot while they fit, then eight per slot. */
	multi = n > 32;
	child = n;
	for (i = 0; i < n; i++) {
		struct sim_fn *fn = &sim.fns[i];

		fn->kind = kinds[i];
		fn->devfn = multi ? i : PCI_DEVFN(i, 0);
		fn->fail_code = PCIBIOS_DEVICE_NOT_FOUND;
		fn->fail_where = -1;
		sim_init_timer(fn);
		sim_init_cfg(fn, multi);
		sim.root[fn->devfn] = fn;
		if (fn->kind != SIM_BRIDGE)
			continue;
		fn->child = &sim.fns[child++];
		fn->child->kind = SIM_ACCEPTS;
		fn->child->parent = fn;
		fn->child->fail_code = PCIBIOS_DEVICE_NOT_FOUND;
		fn->child->fail_where = -1;
		sim_init_timer(fn->child);
		sim_init_cfg(fn->child, false);
	}
	sim.nr_fns = child;
	kfree(kinds);
	return 0;
}

static int __init sim_init(void)
{
	LIST_HEAD(resources);
	int i, rc;

	raw_spin_lock_init(&sim.lock);
	rc = sim_create_functions();
	if (rc)
		return rc;

	sim.sysdata.domain = sim_find_free_domain();
	sim.sysdata.node = NUMA_NO_NODE;
	sim.busn.name = "pci-mwi-sim";
	sim.busn.start = 0;
	sim.busn.end = 255;
	sim.busn.flags = IORESOURCE_BUS | IORESOURCE_PCI_FIXED;
	pci_add_resource(&resources, &sim.busn);

	if (pci_bus_type.pm) {		/* CONFIG_PM */
		sim_pm_domain.ops = *pci_bus_type.pm;
		sim_pm_domain.ops.runtime_resume = sim_runtime_resume;
	}

	rc = sim_register_drivers();
	if (rc)
		goto free_fns;

	pci_lock_rescan_remove();
	sim.bus = pci_create_root_bus(NULL, 0, &sim_ops, &sim.sysdata, &resources);
	if (!sim.bus) {
		pci_unlock_rescan_remove();
		pci_free_resource_list(&resources);
		rc = -ENODEV;
		goto unregister;
	}
	pci_scan_child_bus(sim.bus);
	pci_assign_unassigned_bus_resources(sim.bus);
	pci_bus_add_devices(sim.bus);
	pci_unlock_rescan_remove();

	sim.debugfs = debugfs_create_dir("pci-mwi-sim", NULL);
	for (i = 0; i < sim.nr_fns; i++)
		sim_debugfs_fn(&sim.fns[i]);
	pr_info("%d functions in PCI domain %04x\n", sim.nr_fns, sim.sysdata.domain);
	return 0;

unregister:
	sim_unregister_drivers(ARRAY_SIZE(sim_drivers));
free_fns:
	kfree(sim.fns);
	return rc;
}

static void __exit sim_exit(void)
{
	struct pci_host_bridge *host;
	int i;

	for (i = 0; i < sim.nr_fns; i++) {
		sim_intx_stop(&sim.fns[i]);
		sim_set_cold(&sim.fns[i], false);
		sim_block_cfg(&sim.fns[i], false);
		if (sim.fns[i].d3cold)
			sim_set_d3cold(&sim.fns[i], false);
		sim_drop_pm_domain(&sim.fns[i]);
	}
	sim_unregister_drivers(ARRAY_SIZE(sim_drivers));
	debugfs_remove_recursive(sim.debugfs);
	pci_lock_rescan_remove();
	pci_stop_root_bus(sim.bus);
	host = pci_find_host_bridge(sim.bus);
	pci_remove_root_bus(sim.bus);
	pci_unlock_rescan_remove();
	/*
	 * pci_remove_root_bus() only deletes the host bridge: the reference
	 * pci_create_root_bus() handed over is ours to drop (kmemleak found
	 * the bridge, its name and its windows left behind at every unload).
	 */
	put_device(&host->dev);
	sim.bus = NULL;
	memset(sim.root, 0, sizeof(sim.root));
	kfree(sim.fns);
}

module_init(sim_init);
module_exit(sim_exit);

MODULE_DESCRIPTION("Emulated PCI bus with every Memory-Write-and-Invalidate behaviour");
MODULE_LICENSE("GPL");
