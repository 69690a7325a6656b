// SPDX-License-Identifier: GPL-2.0
/*
 * burn - keep one CPU busy for a while, and mark the start and end in the
 * ftrace buffer so tests can time the governor against the load in guest
 * time.
 *
 *   burn [-c CPU] [-p MS] [-w MS] [-j US] [-t MS]
 *        [-d BUSY_US:PERIOD_US [-L US]] [-n NAME] [-P]
 *
 * -c pins the process to CPU (default: where it runs), -p spins MS
 * milliseconds first, unmarked, so that the scheduler remembers the
 * process as a busy task (its util_est) when it wakes for the load, -w sleeps MS
 * milliseconds on that CPU first (default 0), so that the load of starting
 * the process is over before the burst starts, -j adds a random 0 to US
 * microseconds to that sleep (the burst then starts at a random phase of
 * the tick), -t runs the load for MS milliseconds of CLOCK_MONOTONIC
 * (default 1000), -d makes it a duty cycle (spin BUSY_US, sleep the rest
 * of each PERIOD_US; default: spin all the time), -n names the markers
 * "NAME_start cpu=N" and "NAME_end cpu=N" written to trace_marker
 * (default "burn"); with -d the end marker also gives "longest=US", the
 * longest busy stretch as burn saw it, from getting the CPU back to the
 * end of its spin: longer than BUSY_US when the CPU was taken from it
 * (another task, or the host descheduling the emulated CPU), so the load
 * was heavier than asked for; with -L, each stretch longer than BUSY_US +
 * US is marked where it ends, "NAME_long cpu=N us=STRETCH_US", so that a
 * test can tell which of its samples saw such a stretch.  -P also prints the LED phase markers "#LED phase=busy
 * cpu=N" and "#LED phase=idle cpu=N" on /dev/console at the load's start
 * and end, for the host that samples the board's LEDs (boot/qemu.py).
 * Exits 0, or 1 on a bad argument or affinity error.
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
#include <sys/random.h>

#define TOOL "burn"
#include "tool.h"

static int marker_fd = -1;

static void mark(const char *name, const char *what, int cpu,
		 const char *extra)
{
	char buf[128];
	int n;

	if (marker_fd < 0)
		return;
	n = snprintf(buf, sizeof(buf), "%s_%s cpu=%d%s\n", name, what, cpu,
		     extra);
	if (write(marker_fd, buf, n) < 0)
		marker_fd = -1;
}

static void sleep_ns(long long ns)
{
	struct timespec ts = {
		.tv_sec = ns / 1000000000LL,
		.tv_nsec = ns % 1000000000LL,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void spin_until(long long end)
{
	volatile unsigned long spin = 0;

	while (now_ns() < end)
		for (int i = 0; i < 1000; i++)
			spin++;
}

/* "BUSY:PERIOD" in microseconds, 0 < BUSY <= PERIOD. */
static int parse_duty(char *s, long *busy, long *period)
{
	char *colon = strchr(s, ':');

	if (!colon)
		return 1;
	*colon = 0;
	return parse_int(s, busy) || parse_int(colon + 1, period) ||
	       !*busy || *busy > *period;
}

/* The host's LED phase marker, straight to the console. */
static void led_phase(int on, const char *phase, int cpu)
{
	char buf[64];
	int fd, n;

	if (!on)
		return;
	fd = open("/dev/console", O_WRONLY | O_NOCTTY);
	if (fd < 0)
		return;
	n = snprintf(buf, sizeof(buf), "#LED phase=%s cpu=%d\n", phase, cpu);
	if (write(fd, buf, n) < 0)
		n = 0;
	close(fd);
}

int main(int argc, char **argv)
{
	const char *name = "burn";
	long cpu = -1, ms = 1000, wait_ms = 0, jitter_us = 0, prime_ms = 0;
	long busy_us = 0, period_us = 0, slop_us = -1;
	int phases = 0;
	long long end, t, woke, longest = 0, wait_ns;
	char extra[40] = "";
	int opt;

	while ((opt = getopt(argc, argv, "c:p:w:j:t:d:L:n:P")) != -1) {
		switch (opt) {
		case 'c':
			if (parse_int(optarg, &cpu))
				goto usage;
			break;
		case 'p':
			if (parse_int(optarg, &prime_ms))
				goto usage;
			break;
		case 'w':
			if (parse_int(optarg, &wait_ms))
				goto usage;
			break;
		case 'j':
			if (parse_int(optarg, &jitter_us))
				goto usage;
			break;
		case 't':
			if (parse_int(optarg, &ms))
				goto usage;
			break;
		case 'd':
			if (parse_duty(optarg, &busy_us, &period_us))
				goto usage;
			break;
		case 'L':
			if (parse_int(optarg, &slop_us))
				goto usage;
			break;
		case 'n':
			name = optarg;
			break;
		case 'P':
			phases = 1;
			break;
		default:
			goto usage;
		}
	}

	if (cpu >= 0 && pin_cpu(cpu))
		die("sched_setaffinity");
	marker_fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY);
	if (prime_ms)
		spin_until(now_ns() + prime_ms * 1000000LL);
	wait_ns = wait_ms * 1000000LL;
	if (jitter_us) {
		unsigned int r = 0;

		/*
		 * A phase, not a secret: never wait for the crng, which
		 * on this board (no entropy source) is not ready until
		 * about 30 s after boot.
		 */
		if (getrandom(&r, sizeof(r), GRND_INSECURE) != sizeof(r))
			r = (unsigned int)now_ns();
		wait_ns += (long long)(r % (jitter_us + 1)) * 1000;
	}
	if (wait_ns)
		sleep_ns(wait_ns);
	cpu = sched_getcpu();
	led_phase(phases, "busy", cpu);
	mark(name, "start", cpu, "");
	end = now_ns() + ms * 1000000LL;
	if (!busy_us) {
		spin_until(end);
	} else {
		/* Each period from its own start: no drift over many. */
		for (t = now_ns(); t < end; t += period_us * 1000LL) {
			woke = now_ns();
			spin_until(t + busy_us * 1000LL);
			woke = now_ns() - woke;
			if (woke > longest)
				longest = woke;
			if (slop_us >= 0 && woke > (busy_us + slop_us) * 1000LL) {
				snprintf(extra, sizeof(extra), " us=%lld",
					 woke / 1000);
				mark(name, "long", cpu, extra);
			}
			if (now_ns() < t + period_us * 1000LL)
				sleep_ns(t + period_us * 1000LL - now_ns());
		}
		snprintf(extra, sizeof(extra), " longest=%lld", longest / 1000);
	}
	mark(name, "end", cpu, extra);
	led_phase(phases, "idle", cpu);
	return 0;

usage:
	fprintf(stderr,
		"usage: burn [-c CPU] [-p MS] [-w MS] [-j US] [-t MS] [-d BUSY_US:PERIOD_US [-L US]] [-n NAME] [-P]\n");
	return 1;
}
