// SPDX-License-Identifier: GPL-2.0
/*
 * cpufreq_dt_per_policy - make the board's cpufreq driver ask for a
 * governor per policy, for the in-guest tests of per-policy governor
 * tunables.
 *
 * cpufreq-dt asks for a governor per policy when its platform device has
 * platform data with have_governor_per_policy set; cpufreq-dt-platdev
 * registers the "cpufreq-dt" device without it on this board.  Loading
 * this module unbinds that device (the cpufreq driver and its policies go
 * away) and registers a second "cpufreq-dt" device with the flag set,
 * which cpufreq-dt binds: the policies come back with their governor
 * tunables in policyN/GOVERNOR/.  Unloading it removes that device and
 * binds the original one again.
 */
#include <linux/device.h>
#include <linux/module.h>
#include <linux/platform_device.h>

#include "cpufreq-dt.h"

static struct device *orig;
static struct platform_device *pdev;

static const struct cpufreq_dt_platform_data per_policy_data = {
	.have_governor_per_policy = true,
};

static void per_policy_rebind_orig(void)
{
	if (device_attach(orig) <= 0)
		pr_err("cpufreq_dt_per_policy: %s did not bind again\n",
		       dev_name(orig));
	put_device(orig);
}

static int __init per_policy_init(void)
{
	orig = bus_find_device_by_name(&platform_bus_type, NULL, "cpufreq-dt");
	if (!orig)
		return -ENODEV;
	if (!orig->driver) {
		put_device(orig);
		return -ENODEV;
	}

	device_release_driver(orig);
	pdev = platform_device_register_data(NULL, "cpufreq-dt", 1,
					     &per_policy_data,
					     sizeof(per_policy_data));
	if (IS_ERR(pdev)) {
		per_policy_rebind_orig();
		return PTR_ERR(pdev);
	}
	if (!pdev->dev.driver) {
		platform_device_unregister(pdev);
		per_policy_rebind_orig();
		return -ENODEV;
	}
	pr_info("cpufreq_dt_per_policy: cpufreq-dt asks for a governor per policy\n");
	return 0;
}

static void __exit per_policy_exit(void)
{
	platform_device_unregister(pdev);
	per_policy_rebind_orig();
}

module_init(per_policy_init);
module_exit(per_policy_exit);
MODULE_DESCRIPTION("Rebind cpufreq-dt with a governor per policy (tests)");
MODULE_LICENSE("GPL");
