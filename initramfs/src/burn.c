// SPDX-License-Identifier: GPL-2.0
/*
 * burn - keep one CPU busy for a while, and mark the start and end in the
 * ftrace buffer so tests can time the governor against the load in guest
 * time.
 *
 *   burn [-c CPU] [-w MS] [-t MS] [-n NAME]
 *
 * -c pins the process to CPU (default: where it runs), -w sleeps MS
 * milliseconds on that CPU first (default 0), so that the load of starting
 * the process is over before the burst starts, -t spins for MS
 * milliseconds of CLOCK_MONOTONIC (default 1000), -n names the markers
 * "NAME_start cpu=N" and "NAME_end cpu=N" written to trace_marker
 * (default "burn").  Exits 0, or 1 on a bad argument or affinity error.
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

#include "tool.h"

static int marker_fd = -1;

static void mark(const char *name, const char *what, int cpu)
{
	char buf[96];
	int n;

	if (marker_fd < 0)
		return;
	n = snprintf(buf, sizeof(buf), "%s_%s cpu=%d\n", name, what, cpu);
	if (write(marker_fd, buf, n) < 0)
		marker_fd = -1;
}

int main(int argc, char **argv)
{
	const char *name = "burn";
	long cpu = -1, ms = 1000, wait_ms = 0;
	volatile unsigned long spin = 0;
	long long end;
	int opt;

	while ((opt = getopt(argc, argv, "c:w:t:n:")) != -1) {
		switch (opt) {
		case 'c':
			if (parse_int(optarg, &cpu))
				goto usage;
			break;
		case 'w':
			if (parse_int(optarg, &wait_ms))
				goto usage;
			break;
		case 't':
			if (parse_int(optarg, &ms))
				goto usage;
			break;
		case 'n':
			name = optarg;
			break;
		default:
			goto usage;
		}
	}

	if (cpu >= 0 && pin_cpu(cpu)) {
		perror("burn: sched_setaffinity");
		return 1;
	}
	marker_fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY);
	if (wait_ms) {
		struct timespec ts = {
			.tv_sec = wait_ms / 1000,
			.tv_nsec = wait_ms % 1000 * 1000000L,
		};

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
	cpu = sched_getcpu();
	mark(name, "start", cpu);
	end = now_ns() + ms * 1000000LL;
	while (now_ns() < end)
		for (int i = 0; i < 1000; i++)
			spin++;
	mark(name, "end", cpu);
	return 0;

usage:
	fprintf(stderr, "usage: burn [-c CPU] [-w MS] [-t MS] [-n NAME]\n");
	return 1;
}
