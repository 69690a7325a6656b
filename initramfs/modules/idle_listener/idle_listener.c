// SPDX-License-Identifier: GPL-2.0
/*
 * idle_listener - a scheduler idle notifier for the in-guest tests.
 *
 * Counts SCHED_IDLE_START and SCHED_IDLE_END per CPU and the times a CPU
 * sent the same event twice in a row (which the API promises never to do,
 * hotplug included).  <debugfs>/idle_listener/stats has one line a CPU:
 * "cpu start end out_of_order in_idle".
 *
 * <debugfs>/idle_listener/events lists each CPU's last LOG_LEN events,
 * oldest first, as "cpu nanoseconds S|E", timed by local_clock() (the
 * clock of ftrace's default "local" trace clock, so the tests can place
 * them between trace events, e.g. around a system suspend).
 */
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/sched/idle.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#define LOG_LEN 1024

struct listener_cpu {
	unsigned long start, end, out_of_order;
	unsigned long last;
	unsigned int head;
};

static DEFINE_PER_CPU(struct listener_cpu, listener_cpu);
/*
 * LOG_LEN entries a CPU, (local_clock() << 1) | (event == START), a ring:
 * allocated, too large for the modules' static per-CPU area.
 */
static u64 *event_log;
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
	WRITE_ONCE(event_log[smp_processor_id() * LOG_LEN + c->head % LOG_LEN],
		   local_clock() << 1 | (event == SCHED_IDLE_START));
	WRITE_ONCE(c->head, c->head + 1);
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

static int events_show(struct seq_file *m, void *v)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct listener_cpu *c = per_cpu_ptr(&listener_cpu, cpu);
		unsigned int head = READ_ONCE(c->head);
		unsigned int i = head > LOG_LEN ? head - LOG_LEN : 0;

		for (; i < head; i++) {
			u64 e = READ_ONCE(event_log[cpu * LOG_LEN + i % LOG_LEN]);

			seq_printf(m, "%d %llu %c\n", cpu, e >> 1,
				   (e & 1) ? 'S' : 'E');
		}
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(events);

static int __init listener_init(void)
{
	int ret;

	event_log = kcalloc(nr_cpu_ids * LOG_LEN, sizeof(*event_log),
			    GFP_KERNEL);
	if (!event_log)
		return -ENOMEM;
	ret = sched_idle_notifier_register(&listener_nb);
	if (ret) {
		kfree(event_log);
		return ret;
	}
	dir = debugfs_create_dir("idle_listener", NULL);
	debugfs_create_file("stats", 0444, dir, NULL, &stats_fops);
	debugfs_create_file("events", 0444, dir, NULL, &events_fops);
	return 0;
}

static void __exit listener_exit(void)
{
	debugfs_remove_recursive(dir);
	sched_idle_notifier_unregister(&listener_nb);
	kfree(event_log);
}

module_init(listener_init);
module_exit(listener_exit);
MODULE_DESCRIPTION("Scheduler idle notifier listener for tests");
MODULE_LICENSE("GPL");
