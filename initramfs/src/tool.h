/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the small guest tools (header only: each tool is one
 * static binary built from one .c file).  Define _GNU_SOURCE (for
 * sched_setaffinity()) and TOOL, the tool's name for its messages, before
 * including it.
 */
#ifndef TOOL_H
#define TOOL_H

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef TOOL
#error "define TOOL, the tool's name, before including tool.h"
#endif

/* "TOOL: WHAT: the error" on stderr, and exit status 1. */
static inline void die(const char *what)
{
	fprintf(stderr, TOOL ": %s: %s\n", what, strerror(errno));
	exit(1);
}

static inline long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* A decimal number >= 0 into *v; nonzero when s is anything else. */
static inline int parse_int(const char *s, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	return errno || !*s || *end || *v < 0;
}

/*
 * A decimal number in [min, max], or exit with "TOOL: bad WHAT 'S'
 * (MIN..MAX)".
 */
static inline long parse_range(const char *s, long min, long max,
			       const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, TOOL ": bad %s '%s' (%ld..%ld)\n", what, s, min,
			max);
		exit(1);
	}
	return v;
}

/*
 * Pin the calling thread (the process, before it starts threads) to cpu;
 * 0, or -1 with errno set.
 */
static inline int pin_cpu(long cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

#endif /* TOOL_H */
