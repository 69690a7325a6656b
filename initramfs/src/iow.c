// SPDX-License-Identifier: GPL-2.0
/*
 * iow - wait for I/O: read a block device with O_DIRECT, one block at a
 * time, for a while, so the CPU it runs on spends its time idle waiting
 * for I/O (iowait), for the test of the interactive governor's io_is_busy.
 *
 *   iow [-c CPU] [-t MS] DEVICE
 *
 * -c pins the process to CPU, -t reads for MS milliseconds (default 1000)
 * of CLOCK_MONOTONIC, wrapping around at the end of DEVICE.  Prints
 * "iow reads=N" and exits 0; 1 on a bad argument or a failed call.
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

#define TOOL "iow"
#include "tool.h"

#define BLOCK 4096

int main(int argc, char **argv)
{
	long cpu = -1, ms = 1000, reads = 0;
	long long end;
	off_t off = 0;
	void *buf;
	int opt, fd;

	while ((opt = getopt(argc, argv, "c:t:")) != -1) {
		switch (opt) {
		case 'c':
			if (parse_int(optarg, &cpu))
				goto usage;
			break;
		case 't':
			if (parse_int(optarg, &ms))
				goto usage;
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1)
		goto usage;

	if (cpu >= 0 && pin_cpu(cpu))
		die("sched_setaffinity");
	fd = open(argv[optind], O_RDONLY | O_DIRECT);
	if (fd < 0 || posix_memalign(&buf, BLOCK, BLOCK))
		die("open");
	end = now_ns() + ms * 1000000LL;
	while (now_ns() < end) {
		ssize_t n = pread(fd, buf, BLOCK, off);

		if (n < 0)
			die("pread");
		off = n < BLOCK ? 0 : off + BLOCK;
		reads++;
	}
	printf("iow reads=%ld\n", reads);
	return 0;

usage:
	fprintf(stderr, "usage: iow [-c CPU] [-t MS] DEVICE\n");
	return 1;
}
