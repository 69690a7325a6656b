#!/bin/sh
# io_is_busy: time a CPU waits for I/O (reads of a slow null_blk device)
# counts as load with 1, as idle with 0.  (One of the 23-tunables-* tests:
# make check TESTS=tunables-io-is-busy runs it alone.)
. /lib/ktap.sh
. /lib/board.sh

tunables_test_begin 2

# io_mean V: io_is_busy V; cpu1 at the top speed (a burst), then waiting
# for reads of a null_blk device that complete after 1 ms; prints "MEAN
# IOWAIT": the mean speed (kHz) over a second of it, and cpu1's iowait
# share (percent) in that second.
iowait_cs() {
	awk '$1 == "cpu1" { print $6 }' /proc/stat
}
io_mean() {
	wr $IA/io_is_busy "$1"
	settle_min 50
	(burn -c 1 -t 200 -n io && iow -c 1 -t 2000 /dev/nullb0 > /dev/null) &
	ipid=$!
	sleep 0.7
	w0=$(iowait_cs)
	sum=0
	n=0
	while [ $n -lt 20 ]; do
		read -r f < $POLICY/scaling_cur_freq
		sum=$((sum + f))
		n=$((n + 1))
		sleep 0.05
	done
	w1=$(iowait_cs)
	wait $ipid
	echo $((sum / n)) $((w1 - w0))
}
# have_dev DEV: wait up to a second for the block device DEV.
have_dev() {
	n=0
	while [ ! -b "$1" ] && [ $n -lt 10 ]; do sleep 0.1; n=$((n + 1)); done
	[ -b "$1" ]
}
if modprobe null_blk irqmode=2 completion_nsec=1000000 nr_devices=1 gb=1 &&
	have_dev /dev/nullb0; then
	set -- $(io_mean 1)
	busy_mean=$1 busy_wait=$2
	set -- $(io_mean 0)
	idle_mean=$1 idle_wait=$2
	wr $IA/io_is_busy 1
	rmmod null_blk
	ktap_diag "waiting for I/O on cpu1: mean speed $busy_mean kHz with io_is_busy 1 (iowait $busy_wait cs), $idle_mean kHz with 0 (iowait $idle_wait cs)"
	# A precondition, but a share of time: on a debug kernel the block
	# layer's own CPU time can eat into it (a bound, TODO there).
	ktap_bound "reads of a slow device keep cpu1 waiting for I/O" \
		[ "$busy_wait" -ge 30 -a "$idle_wait" -ge 30 ]
	ktap_bound "io_is_busy 1 counts I/O wait as load, 0 as idle" \
		[ "$busy_mean" -ge $((idle_mean + 300000)) ]
else
	ktap_fail "reads of a slow device keep cpu1 waiting for I/O"
	ktap_fail "io_is_busy 1 counts I/O wait as load, 0 as idle"
fi

tunables_test_end
