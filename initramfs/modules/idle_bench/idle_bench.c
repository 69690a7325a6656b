// SPDX-License-Identifier: GPL-2.0
/*
 * idle_bench - what a scheduler idle notifier costs, for "make bench".
 *
 * <debugfs>/idle_bench/listeners: write N (0..8) to have N listeners on
 * the real sched idle notifier chain, each as small as a listener can be
 * (it counts the events of its CPU); read gives N and the events they saw.
 * The in-guest ping-pong workload then times idle periods with 0, 1 and 4
 * listeners in one boot.
 *
 * <debugfs>/idle_bench/chain: reading it times the hook itself: the exact
 * construct do_idle() runs (a static branch guarding an atomic notifier
 * call chain), on a private chain with 0, 1, 2 and 4 listeners, against an
 * empty loop (the kernel without the hook).  One line per listener count:
 * "listeners ns_per_call loop_ns_per_call".  The static branch is patched
 * code only with CONFIG_JUMP_LABEL; without it the branch is a load and a
 * test, which this shows as well.
 */
#include <linux/debugfs.h>
#include <linux/jump_label.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/sched/idle.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

#define MAX_LISTENERS	8
#define LOOPS		200000

static DEFINE_PER_CPU(unsigned long, events);
static struct notifier_block real_nb[MAX_LISTENERS];
static unsigned int nr_real;
static DEFINE_MUTEX(bench_lock);
static struct dentry *dir;

static int count_event(struct notifier_block *nb, unsigned long event,
		       void *data)
{
	this_cpu_inc(events);
	return NOTIFY_OK;
}

/* Called with bench_lock held. */
static int set_listeners(unsigned int n)
{
	int ret;

	while (nr_real > n)
		sched_idle_notifier_unregister(&real_nb[--nr_real]);
	while (nr_real < n) {
		real_nb[nr_real].notifier_call = count_event;
		ret = sched_idle_notifier_register(&real_nb[nr_real]);
		if (ret)
			return ret;
		nr_real++;
	}
	return 0;
}

static int listeners_show(struct seq_file *m, void *v)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(events, cpu);
	mutex_lock(&bench_lock);
	seq_printf(m, "%u %lu\n", nr_real, sum);
	mutex_unlock(&bench_lock);
	return 0;
}

static int listeners_open(struct inode *inode, struct file *file)
{
	return single_open(file, listeners_show, NULL);
}

static ssize_t listeners_write(struct file *file, const char __user *buf,
			       size_t len, loff_t *ppos)
{
	unsigned int n;
	int ret;

	ret = kstrtouint_from_user(buf, len, 0, &n);
	if (ret)
		return ret;
	if (n > MAX_LISTENERS) {
		pr_err("idle_bench: at most %d listeners\n", MAX_LISTENERS);
		return -EINVAL;
	}
	mutex_lock(&bench_lock);
	ret = set_listeners(n);
	mutex_unlock(&bench_lock);
	return ret ? ret : len;
}

static const struct file_operations listeners_fops = {
	.owner = THIS_MODULE,
	.open = listeners_open,
	.read = seq_read,
	.write = listeners_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/* The private copy of the hook of kernel/sched/idle.c. */
static ATOMIC_NOTIFIER_HEAD(bench_chain);
static DEFINE_STATIC_KEY_FALSE(bench_key);
static struct notifier_block bench_nb[MAX_LISTENERS];

static noinline void bench_hook(unsigned long event)
{
	if (static_branch_unlikely(&bench_key))
		atomic_notifier_call_chain(&bench_chain, event, NULL);
}

static noinline void bench_nohook(unsigned long event)
{
	barrier();
}

/* ns per call of fn, the fastest of three runs of LOOPS calls. */
static u64 time_calls(void (*fn)(unsigned long))
{
	u64 best = U64_MAX;
	int run, i;

	for (run = 0; run < 3; run++) {
		u64 t0, t;

		preempt_disable();
		t0 = ktime_get_ns();
		for (i = 0; i < LOOPS; i++)
			fn(i & 1 ? SCHED_IDLE_END : SCHED_IDLE_START);
		t = ktime_get_ns() - t0;
		preempt_enable();
		cond_resched();
		best = min(best, t);
	}
	return best;
}

static int chain_show(struct seq_file *m, void *v)
{
	static const unsigned int counts[] = { 0, 1, 2, 4 };
	unsigned int i, n = 0;
	u32 hrem, lrem;

	mutex_lock(&bench_lock);
	for (i = 0; i < ARRAY_SIZE(counts); i++) {
		u64 hook, loop;

		while (n < counts[i]) {
			bench_nb[n].notifier_call = count_event;
			atomic_notifier_chain_register(&bench_chain, &bench_nb[n]);
			static_branch_inc(&bench_key);
			n++;
		}
		/* Picoseconds per call, printed as nanoseconds. */
		hook = div_u64(time_calls(bench_hook) * 1000, LOOPS);
		loop = div_u64(time_calls(bench_nohook) * 1000, LOOPS);
		hook = div_u64_rem(hook, 1000, &hrem);
		loop = div_u64_rem(loop, 1000, &lrem);
		seq_printf(m, "%u %llu.%03u %llu.%03u\n", counts[i],
			   hook, hrem, loop, lrem);
	}
	while (n) {
		n--;
		static_branch_dec(&bench_key);
		atomic_notifier_chain_unregister(&bench_chain, &bench_nb[n]);
	}
	mutex_unlock(&bench_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(chain);

static int __init idle_bench_init(void)
{
	dir = debugfs_create_dir("idle_bench", NULL);
	debugfs_create_file("listeners", 0644, dir, NULL, &listeners_fops);
	debugfs_create_file("chain", 0444, dir, NULL, &chain_fops);
	return 0;
}

static void __exit idle_bench_exit(void)
{
	debugfs_remove_recursive(dir);
	mutex_lock(&bench_lock);
	set_listeners(0);
	mutex_unlock(&bench_lock);
}

module_init(idle_bench_init);
module_exit(idle_bench_exit);
MODULE_DESCRIPTION("Cost of scheduler idle notifiers, for benchmarks");
MODULE_LICENSE("GPL");
