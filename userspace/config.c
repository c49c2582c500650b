// SPDX-License-Identifier: GPL-2.0
/*
 * What mwictl reads of config space, through libpci by whichever access
 * method it uses (sysfs, another of -A, a dump of -F): bit 4 of COMMAND,
 * the MWI state where the kernel's mwi attribute is not there to tell it;
 * the Cache Line Size register; and the PCI Express capability, which
 * hardwires MWI to 0. Register names are <pci/header.h>'s, as lspci's.
 * Never writes config space.
 */
#include <errno.h>
#include <pci/pci.h>		/* and <pci/header.h> */

#include "mwictl.h"

/* Bit 4 of COMMAND: 1 or 0, or -errno when it cannot be read. */
int config_mwi(struct dev *d)
{
	int cmd = lib_config_word(d, PCI_COMMAND);

	return cmd < 0 ? cmd : !!(cmd & PCI_COMMAND_INVALIDATE);
}

/* The Cache Line Size register in bytes (it counts 32-bit words), or -1. */
int config_cls_bytes(struct dev *d)
{
	int cls = lib_config_byte(d, PCI_CACHE_LINE_SIZE);

	return cls < 0 ? -1 : cls * 4;
}

/*
 * Whether @d has a PCI Express capability: 1 or 0, or -EACCES when its
 * capability list is beyond what can be read (linux-proc gives users other
 * than root the first 64 bytes, an lspci -x dump has no more), where lspci
 * says "<access denied>".
 */
int config_pcie(struct dev *d)
{
	int status = lib_config_word(d, PCI_STATUS), first;

	if (status < 0)
		return status;
	if (!(status & PCI_STATUS_CAP_LIST))
		return 0;
	if (lib_has_cap(d, PCI_CAP_ID_EXP))
		return 1;
	first = lib_config_byte(d, PCI_CAPABILITY_LIST);
	if (first >= 0)
		first = lib_config_byte(d, first & ~3);
	return first < 0 ? -EACCES : 0;
}

/*
 * What @what asks for (READ_MWI, READ_CLS, READ_PCIE) from config space
 * alone, for an access method without the kernel's attributes: a PCI
 * Express function cannot have MWI (n/a, as the kernel says by hiding its
 * attribute), any other has bit 4 of COMMAND; where the capability list
 * cannot be read, neither is known.
 */
void config_read(struct dev *d, unsigned int what)
{
	int pcie = what & (READ_MWI | READ_PCIE) ? config_pcie(d) : 0;

	if (what & READ_PCIE)
		d->pcie = pcie;
	if (what & READ_CLS)
		d->cls_bytes = config_cls_bytes(d);
	if (!(what & READ_MWI))
		return;
	if (pcie < 0) {
		d->source = MWI_FROM_CONFIG;
		d->mwi = -1;
		d->mwi_errno = -pcie;
		return;
	}
	config_state(d, pcie ? "PCI Express function" : NULL);
}

/*
 * The MWI state of @d without the kernel's mwi attribute: n/a for
 * @na_reason, else bit 4 of COMMAND (or the errno of reading it).
 */
void config_state(struct dev *d, const char *na_reason)
{
	int mwi;

	d->na_reason = na_reason;
	if (na_reason) {
		d->source = MWI_NOT_POSSIBLE;
		d->mwi = -1;
		d->mwi_errno = ENOENT;
		return;
	}
	mwi = config_mwi(d);
	d->source = MWI_FROM_CONFIG;
	d->mwi = mwi < 0 ? -1 : mwi;
	d->mwi_errno = mwi < 0 ? -mwi : 0;
}
