// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong - time idle periods: two threads on two CPUs pass a byte back
 * and forth through pipes, so each CPU goes idle and is woken once per
 * round trip (two scheduler idle periods per round trip, one a CPU).
 *
 *   pingpong [-a CPU] [-b CPU] [-n ROUND_TRIPS]
 *
 * Prints "pingpong N ns_per_round_trip".  Exit status 1 on a bad argument
 * or a failed system call, with a message.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TOOL "pingpong"
#include "tool.h"

static int ping[2], pong[2];
static long rounds = 2000;

/* Pin the calling thread to cpu. */
static void pin(int cpu)
{
	if (pin_cpu(cpu))
		die("pinning to a CPU");
}

static void *echo_thread(void *arg)
{
	char c;
	long i;

	pin((int)(long)arg);
	for (i = 0; i < rounds; i++) {
		if (read(ping[0], &c, 1) != 1)
			die("read");
		if (write(pong[1], &c, 1) != 1)
			die("write");
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int a = 1, b = 2, opt, err;
	struct timespec t0, t1;
	pthread_t echo;
	char c = 'x';
	long i;
	double ns;

	while ((opt = getopt(argc, argv, "a:b:n:")) != -1) {
		switch (opt) {
		case 'a':
			a = parse_range(optarg, 0, CPU_SETSIZE - 1, "CPU");
			break;
		case 'b':
			b = parse_range(optarg, 0, CPU_SETSIZE - 1, "CPU");
			break;
		case 'n':
			rounds = parse_range(optarg, 1, 100000000, "round trip count");
			break;
		default:
			fprintf(stderr, "usage: pingpong [-a CPU] [-b CPU] [-n N]\n");
			return 1;
		}
	}
	if (pipe(ping) || pipe(pong))
		die("pipe");
	pin(a);
	err = pthread_create(&echo, NULL, echo_thread, (void *)(long)b);
	if (err) {
		errno = err;
		die("pthread_create");
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < rounds; i++) {
		if (write(ping[1], &c, 1) != 1)
			die("write");
		if (read(pong[0], &c, 1) != 1)
			die("read");
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	pthread_join(echo, NULL);
	ns = (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
	printf("pingpong %ld %.0f\n", rounds, ns / rounds);
	return 0;
}
