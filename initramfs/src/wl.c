// SPDX-License-Identifier: GPL-2.0
/*
 * wl - the governor benchmark's workloads (make bench).  Each marks what
 * it does in the ftrace buffer (trace_marker), so the host can put the
 * recorded frequency against the load in guest time.
 *
 *   wl tap [-n COUNT] [-i IDLE_MS] [-b BURST_MS] [-c CPU | -f] [-s]
 *	COUNT times (default 10): sleep IDLE_MS (1500), then spin BURST_MS
 *	(300) of CLOCK_MONOTONIC on one CPU; the CPU rotates through the
 *	CPUs the process may run on, or with -f (free) the scheduler places
 *	each burst and may move it.  With -s a burst is BURST_MS of work at
 *	the top speed, as a frame with -s below.  Markers "tap_start cpu=C
 *	seq=K" and "tap_end cpu=C seq=K" (the CPU where each was written).
 *   wl frame [-t MS] [-p PERIOD_US] [-W WORK_US] [-c CPU] [-s]
 *	a frame loop for MS (5000) at one frame per PERIOD_US (16667, 60 Hz);
 *	each frame spins WORK_US (5000) of CLOCK_MONOTONIC: the work of a
 *	frame at the top speed, as QEMU runs the guest at one speed whatever
 *	the frequency (the host models the frequency's effect).  A fixed
 *	time rather than a fixed loop count, so the load the governors see
 *	does not depend on how fast the host emulates.  With -s the frame
 *	spins until WORK_US at the top speed are done at the speed its CPU
 *	runs at (scaling_cur_freq, read every 200 us): at a fifth of the top
 *	speed a frame takes five times longer, as on hardware, so the
 *	governors see the load their speed causes (closed loop).  "The top
 *	speed" is the biggest CPU's: a CPU does work at the rate
 *	cur/max * cpu_capacity/1024 (its sysfs cpu_capacity, 1024 on the
 *	biggest CPUs and where it is missing), read for the CPU the process
 *	is on at each step, so a frame that the scheduler moves to a smaller
 *	cluster takes longer there, as on a big.LITTLE board.  Frames
 *	start on the period's grid; a frame that starts late is counted.
 *	Markers "frame_start cpu=C seq=K" and "frame_end cpu=C seq=K".
 *   wl idle [-t MS] [-l LEAD_MS]
 *	sleep LEAD_MS (0) unmarked, so what starting the program woke is
 *	over, then MS (10000) between the markers "idle_start" and
 *	"idle_end".
 *
 * -c pins the process to CPU (tap: the first CPU of the rotation).  Each
 * workload prints one line of "key=value" words on stdout when it is done
 * (its format is checked by tests/40-bench-smoke.sh):
 *
 *   wl tap bursts=N burst_ms=B idle_ms=I cpus=A,B,..|free [scaled=1]
 *   wl frame frames=N period_us=P work_us=W late=L scaled=0|1
 *   wl idle ms=M
 *
 * Exit status 1 with a message on a bad argument or a failed system call
 * (also when the trace marker cannot be opened: the benchmark needs it;
 * with the trace buffer switched off the markers are not recorded).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TOOL "wl"
#include "tool.h"

#define MARKER "/sys/kernel/tracing/trace_marker"

static int marker_fd = -1;

static void usage(void)
{
	fprintf(stderr,
		"usage: wl tap [-n COUNT] [-i IDLE_MS] [-b BURST_MS] [-c CPU | -f] [-s]\n"
		"       wl frame [-t MS] [-p PERIOD_US] [-W WORK_US] [-c CPU] [-s]\n"
		"       wl idle [-t MS] [-l LEAD_MS]\n");
	exit(1);
}

static void sleep_until(long long ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000LL,
			       .tv_nsec = ns % 1000000000LL };
	int err;

	while ((err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL)))
		if (err != EINTR) {
			errno = err;
			die("clock_nanosleep");
		}
}

/*
 * mark "WHAT[ cpu=C seq=K]" in the trace buffer; seq < 0 leaves both out.
 * EBADF is the trace buffer switched off (tracing_on 0): nothing to mark.
 */
static void mark(const char *what, long seq)
{
	char buf[64];
	int n;

	if (seq < 0)
		n = snprintf(buf, sizeof(buf), "%s\n", what);
	else
		n = snprintf(buf, sizeof(buf), "%s cpu=%d seq=%ld\n", what,
			     sched_getcpu(), seq);
	if (write(marker_fd, buf, n) != n && errno != EBADF)
		die("writing " MARKER);
}

/* Spin for US microseconds of CLOCK_MONOTONIC. */
static void spin_us(long us)
{
	long long end = now_ns() + us * 1000LL;
	volatile unsigned int x = 1;

	while (now_ns() < end)
		for (int i = 0; i < 100; i++)
			x = x * 1103515245u + 12345u;
}

/* A cpufreq value, in kHz (or any number a sysfs file holds). */
static long cpufreq_khz(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		die("reading scaling_cur_freq");
	buf[n] = 0;
	return atol(buf);
}

/*
 * What -s needs of each CPU, opened when the process first runs there:
 * scaling_cur_freq's fd, cpuinfo_max_freq and cpu_capacity.
 */
static struct cpu_speed {
	int cur_fd;
	long max_khz;
	long capacity;
} speed[CPU_SETSIZE];

static struct cpu_speed *cpu_speed(int cpu)
{
	struct cpu_speed *s = &speed[cpu];
	char path[96];
	int fd;

	if (s->max_khz)
		return s;
	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", cpu);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die(path);
	s->max_khz = cpufreq_khz(fd);
	close(fd);
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpu_capacity",
		 cpu);
	fd = open(path, O_RDONLY);
	s->capacity = fd < 0 ? 1024 : cpufreq_khz(fd);
	if (fd >= 0)
		close(fd);
	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", cpu);
	s->cur_fd = open(path, O_RDONLY);
	if (s->cur_fd < 0 || s->max_khz <= 0 || s->capacity <= 0)
		die(path);
	return s;
}

/*
 * Spin until US microseconds of work at the top speed are done at the
 * rate of the CPU the process runs on (cur/max * capacity/1024), read
 * every 200 us.
 */
static void spin_scaled_us(long us)
{
	double left = us * 1000.0;	/* ns of work at the top speed */
	long long t = now_ns();

	while (left > 0) {
		struct cpu_speed *s = cpu_speed(sched_getcpu());
		double rate = (double)cpufreq_khz(s->cur_fd) / s->max_khz *
			      s->capacity / 1024;
		long long chunk = (long long)(left / rate) + 1;
		long long t1;

		spin_us((chunk < 200000 ? chunk : 200000) / 1000 + 1);
		t1 = now_ns();
		left -= (t1 - t) * rate;
		t = t1;
	}
}

static int do_tap(long count, long idle_ms, long burst_ms, long first,
		  int free, int scaled)
{
	int cpus[CPU_SETSIZE], ncpus = 0, start = 0;
	cpu_set_t set;
	char list[256] = "";

	if (sched_getaffinity(0, sizeof(set), &set))
		die("sched_getaffinity");
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &set))
			continue;
		if (c == first)
			start = ncpus;
		cpus[ncpus++] = c;
	}
	if (first >= 0 && cpus[start] != first) {
		fprintf(stderr, "wl: CPU %ld is not available\n", first);
		return 1;
	}
	for (long k = 0; k < count; k++) {
		int cpu = cpus[(start + k) % ncpus];
		size_t len = strlen(list);

		if (!free && pin_cpu(cpu))
			die("sched_setaffinity");
		if (!free && k < ncpus)
			snprintf(list + len, sizeof(list) - len, "%s%d",
				 k ? "," : "", cpu);
		sleep_until(now_ns() + idle_ms * 1000000LL);
		mark("tap_start", k);
		if (scaled)
			spin_scaled_us(burst_ms * 1000);
		else
			spin_us(burst_ms * 1000);
		mark("tap_end", k);
	}
	printf("wl tap bursts=%ld burst_ms=%ld idle_ms=%ld cpus=%s%s\n", count,
	       burst_ms, idle_ms, free ? "free" : list, scaled ? " scaled=1" : "");
	return 0;
}

static int do_frame(long ms, long period_us, long work_us, int scaled)
{
	long long t0, next, end;
	long n = 0, late = 0;

	/* Start a period from now, as a vsync would. */
	t0 = now_ns() + period_us * 1000LL;
	end = t0 + ms * 1000000LL;
	for (next = t0; next < end; next = t0 + (n * period_us * 1000LL)) {
		if (now_ns() > next)
			late++;
		else
			sleep_until(next);
		mark("frame_start", n);
		if (scaled)
			spin_scaled_us(work_us);
		else
			spin_us(work_us);
		mark("frame_end", n);
		n++;
	}
	printf("wl frame frames=%ld period_us=%ld work_us=%ld late=%ld scaled=%d\n",
	       n, period_us, work_us, late, scaled);
	return 0;
}

static int do_idle(long ms, long lead_ms)
{
	sleep_until(now_ns() + lead_ms * 1000000LL);
	mark("idle_start", -1);
	sleep_until(now_ns() + ms * 1000000LL);
	mark("idle_end", -1);
	printf("wl idle ms=%ld\n", ms);
	return 0;
}

int main(int argc, char **argv)
{
	long count = 10, idle_ms = 1500, burst_ms = 300, cpu = -1;
	long ms = -1, period_us = 16667, work_us = 5000, lead_ms = 0;
	int scaled = 0, free = 0;
	const char *cmd;
	int opt;

	if (argc < 2)
		usage();
	cmd = argv[1];
	optind = 2;
	while ((opt = getopt(argc, argv, "n:i:b:c:t:p:W:l:sf")) != -1) {
		switch (opt) {
		case 'n': count = parse_range(optarg, 1, 100000, "count"); break;
		case 'i': idle_ms = parse_range(optarg, 0, 3600000, "idle ms"); break;
		case 'b': burst_ms = parse_range(optarg, 1, 3600000, "burst ms"); break;
		case 'c': cpu = parse_range(optarg, 0, CPU_SETSIZE - 1, "CPU"); break;
		case 't': ms = parse_range(optarg, 1, 3600000, "duration ms"); break;
		case 'p': period_us = parse_range(optarg, 100, 10000000, "period us"); break;
		case 'W': work_us = parse_range(optarg, 10, 10000000, "work us"); break;
		case 'l': lead_ms = parse_range(optarg, 0, 3600000, "lead-in ms"); break;
		case 's': scaled = 1; break;
		case 'f': free = 1; break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();

	if (strcmp(cmd, "tap") && strcmp(cmd, "frame") && strcmp(cmd, "idle"))
		usage();
	marker_fd = open(MARKER, O_WRONLY);
	if (marker_fd < 0)
		die("opening " MARKER);
	if (free && (strcmp(cmd, "tap") || cpu >= 0))
		usage();
	if (!strcmp(cmd, "tap"))
		return do_tap(count, idle_ms, burst_ms, cpu, free, scaled);
	if (cpu >= 0)
		if (pin_cpu(cpu))
			die("sched_setaffinity");
	if (!strcmp(cmd, "frame"))
		return do_frame(ms < 0 ? 5000 : ms, period_us, work_us, scaled);
	return do_idle(ms < 0 ? 10000 : ms, lead_ms);
}
