#!/bin/sh
# The ARM CPU LED idle events come from the scheduler idle notifier: per
# CPU, idle-start and idle-end counts pair up and grow with load and idle;
# they follow scheduler idle periods, so there are at most as many as
# hardware idle entries (power:cpu_idle), and a CPU kept busy sends none.
. /lib/ktap.sh
. /lib/board.sh

EV=/sys/kernel/debug/arm_leds/idle_events
ktap_plan $((3 * NCPUS + 3))

ktap_check "arm_leds/idle_events exists" [ -f $EV ]

# counts CPU: "START END" of CPU.
counts() {
	awk -v c="$1" '$1 == c { print $2, $3 }' $EV
}

cp $EV /tmp/ev.before
k=0
while [ $k -lt "$NCPUS" ]; do
	burn -c $k -t 200 -n ev
	sleep 0.2
	k=$((k + 1))
done
k=0
while [ $k -lt "$NCPUS" ]; do
	set -- $(awk -v c=$k '$1 == c { print $2, $3 }' /tmp/ev.before)
	s0=$1 e0=$2
	# Read CPU k's counts on CPU k: it runs the reader, so it is not in
	# an idle period and both counts are settled (read from another CPU
	# they race with that CPU's idle periods).
	set -- $(taskset -c $k cat $EV | awk -v c=$k '$1 == c { print $2, $3 }')
	s1=$1 e1=$2
	d=$((s1 - e1))
	ktap_diag "cpu$k: idle-start $s0 -> $s1, idle-end $e0 -> $e1"
	ktap_eq "cpu$k idle-start and idle-end pair up (read on cpu$k)" "$d" 0
	ktap_check "cpu$k counts grow across load and idle" [ $s1 -gt $s0 -a $e1 -gt $e0 ]
	k=$((k + 1))
done

# LED idle-starts against hardware idle entries over the same interval.
trace_reset 4096
trace_event power/cpu_idle
cp $EV /tmp/ev.before
echo 1 > $TRACING/tracing_on
burn -c 1 -t 300 -n ev
sleep 2
echo 0 > $TRACING/tracing_on
cp $EV /tmp/ev.after
k=0
while [ $k -lt "$NCPUS" ]; do
	s0=$(awk -v c=$k '$1 == c { print $2 }' /tmp/ev.before)
	s1=$(awk -v c=$k '$1 == c { print $2 }' /tmp/ev.after)
	hw=$(grep 'cpu_idle:' $TRACING/trace | grep -v 'state=4294967295' | grep -c "cpu_id=$k\$")
	ktap_diag "cpu$k: $((s1 - s0)) LED idle-start events, $hw hardware idle entries"
	ktap_check "cpu$k LED idle-starts <= hardware idle entries" [ $((s1 - s0)) -le "$hw" ]
	k=$((k + 1))
done
trace_reset 1024

# A CPU kept busy sends no idle events while it runs.
burn -c 2 -t 2500 -n busy &
pid=$!
sleep 0.5
s0=$(awk '$1 == 2 { print $2 }' $EV)
sleep 1.5
s1=$(awk '$1 == 2 { print $2 }' $EV)
wait $pid
ktap_diag "busy cpu2: idle-start $s0 -> $s1 over 1.5 s"
ktap_check "a busy CPU's idle-start count stays flat" [ $((s1 - s0)) -le 1 ]

echo report > $EV
ktap_check "a write to idle_events logs the counts" sh -c "dmesg | grep -q 'cpu0 LED: [0-9]* idle-start'"
ktap_done
