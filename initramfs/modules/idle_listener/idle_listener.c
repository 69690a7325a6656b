// SPDX-License-Identifier: GPL-2.0
/*
 * idle_listener - a scheduler idle notifier for the in-guest tests.
 *
 * Counts SCHED_IDLE_START and SCHED_IDLE_END per CPU and the times a CPU
 * sent the same event twice in a row (which the API promises never to do,
 * hotplug included).  <debugfs>/idle_listener/stats has one line a CPU:
 * "cpu start end out_of_order in_idle".
 */
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/sched/idle.h>
#include <linux/seq_file.h>

struct listener_cpu {
	unsigned long start, end, out_of_order;
	unsigned long last;
};

static DEFINE_PER_CPU(struct listener_cpu, listener_cpu);
static struct dentry *dir;

static int listener_notify(struct notifier_block *nb, unsigned long event,
			   void *data)
{
	struct listener_cpu *c = this_cpu_ptr(&listener_cpu);

	if (event == SCHED_IDLE_START)
		c->start++;
	else
		c->end++;
	if (c->last == event)
		c->out_of_order++;
	c->last = event;
	return NOTIFY_OK;
}

static struct notifier_block listener_nb = {
	.notifier_call = listener_notify,
};

static int stats_show(struct seq_file *m, void *v)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct listener_cpu *c = per_cpu_ptr(&listener_cpu, cpu);

		seq_printf(m, "%d %lu %lu %lu %d\n", cpu, READ_ONCE(c->start),
			   READ_ONCE(c->end), READ_ONCE(c->out_of_order),
			   READ_ONCE(c->last) == SCHED_IDLE_START);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

static int __init listener_init(void)
{
	int ret = sched_idle_notifier_register(&listener_nb);

	if (ret)
		return ret;
	dir = debugfs_create_dir("idle_listener", NULL);
	debugfs_create_file("stats", 0444, dir, NULL, &stats_fops);
	return 0;
}

static void __exit listener_exit(void)
{
	debugfs_remove_recursive(dir);
	sched_idle_notifier_unregister(&listener_nb);
}

module_init(listener_init);
module_exit(listener_exit);
MODULE_DESCRIPTION("Scheduler idle notifier listener for tests");
MODULE_LICENSE("GPL");
