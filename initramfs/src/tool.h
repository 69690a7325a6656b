/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the small guest tools burn and iow (header only: each
 * tool is one static binary built from one .c file).  Include it after
 * defining _GNU_SOURCE, for sched_setaffinity().
 */
#ifndef TOOL_H
#define TOOL_H

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

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

/* Pin the calling process to cpu; 0, or -1 with errno set. */
static inline int pin_cpu(long cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

#endif /* TOOL_H */
