// SPDX-License-Identifier: GPL-2.0
/*
 * pci-mwi-probe: a modular driver for the emulator's "accepts" functions
 * (1b36:e000) that only udev loads, by the function's modalias, as
 * distributions load most PCI drivers. It shows that a udev rule setting
 * ATTR{mwi} at "add" reaches the probe of a driver loaded by the same
 * event: the probe asks for MWI as drivers do, and the function's
 * mwi_probe_result keeps the answer for as long as the driver is bound:
 * what pcim_set_mwi() returned (0 or a negative errno), then 1 or 0 for
 * what pci_mwi_enabled() said. tests-bats/sim-udev-modalias.bats
 * is its user.
 */
#include <linux/device.h>
#include <linux/module.h>
#include <linux/pci.h>

#define SIM_DEVICE_ACCEPTS	0xe000	/* pci-mwi-sim's "accepts" */

static ssize_t mwi_probe_result_show(struct device *dev, struct device_attribute *attr,
				     char *buf)
{
	int *result = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%d %d\n", result[0], result[1]);
}
static DEVICE_ATTR_RO(mwi_probe_result);

static struct attribute *mwi_probe_attrs[] = {
	&dev_attr_mwi_probe_result.attr,
	NULL
};
ATTRIBUTE_GROUPS(mwi_probe);

static int mwi_probe_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	int *result;
	int rc;

	result = devm_kcalloc(&pdev->dev, 2, sizeof(*result), GFP_KERNEL);
	if (!result)
		return -ENOMEM;
	rc = pcim_enable_device(pdev);
	if (rc)
		return rc;
	result[0] = pcim_set_mwi(pdev);
	result[1] = pci_mwi_enabled(pdev);
	pci_set_drvdata(pdev, result);
	return 0;
}

static const struct pci_device_id mwi_probe_ids[] = {
	{ PCI_DEVICE(PCI_VENDOR_ID_REDHAT, SIM_DEVICE_ACCEPTS) },
	{ }
};
MODULE_DEVICE_TABLE(pci, mwi_probe_ids);

static struct pci_driver mwi_probe_driver = {
	.name = "pci-mwi-probe",
	.id_table = mwi_probe_ids,
	.probe = mwi_probe_probe,
	.dev_groups = mwi_probe_groups,
};
module_pci_driver(mwi_probe_driver);

MODULE_DESCRIPTION("pci-mwi test driver that udev loads by modalias");
MODULE_LICENSE("GPL");
