#!/bin/sh
# timer_slack: how long past its sample an idle CPU above the minimum may
# sleep before it is woken to be evaluated; -1 never wakes it.  (One of
# the 23-tunables-* tests: make check TESTS=tunables-timer-slack runs it
# alone.)
. /lib/ktap.sh
. /lib/board.sh

tunables_test_begin 4

# after_burst SLACK: a burst on cpu1, then 1 s idle; prints "MIN IDLE
# KSOFTIRQD TASK AWAKE": us from the burst's end to the minimum speed (-1:
# not reached), and how many times the slack timer ran on a CPU in
# hardware idle (in the interrupt that woke it), in ksoftirqd, in a task,
# and in the idle task of an awake CPU (see hw_idle_marked).  At an idle
# exit the slack timer also backs the deferrable sampling timer up; those
# runs, on a CPU that is awake, wake none.
after_burst() {
	wr $IA/timer_slack "$1"
	# An idle CPU held above the minimum (timer_slack -1 before) takes the
	# new value when it next runs: make cpu1 run.
	burn -c 1 -t 30 -n kick
	trace_reset 2048
	trace_event power/cpu_frequency
	trace_event timer/timer_expire_entry
	trace_event power/cpu_idle
	settle_min 50
	echo 1 > $TRACING/tracing_on
	burn -c 1 -w 300 -t 300 -n sl
	sleep 1
	echo 0 > $TRACING/tracing_on
	# "idle|awake TASK-PID [CPU] FLAGS TIME: EVENT: ...".
	hw_idle_marked | awk -v fmin="$fmin" 'match($0, /[0-9]+\.[0-9]+: /) {
			ts = substr($0, RSTART, RLENGTH - 2) }
		/tracing_mark_write: sl_end/ { e = ts }
		/cpu_frequency:/ && e && !mn && /state=/ {
			v = $0; sub(/.*state=/, "", v); if (v + 0 == fmin) mn = ts }
		/function=interactive_slack_timer/ && e {
			if ($1 == "idle") n++
			else if ($2 ~ /^ksoftirqd/) k++
			else if ($2 ~ /^<idle>-0/) a++
			else t++ }
		END { printf "%d %d %d %d %d\n", mn ? (mn - e) * 1e6 : -1, n + 0, k + 0, t + 0, a + 0 }'
}
set -- $(after_burst -1)
ktap_diag "timer_slack -1: minimum after $1 us, slack timer runs: $2 on an idle CPU, $3 in ksoftirqd, $4 in a task, $5 in the idle task awake"
ktap_eq "timer_slack -1: no slack timer wakes an idle CPU" "$2" 0
# The bounds follow from the rules (down_bound in board.sh): an idle CPU
# above the minimum is evaluated timer_rate + timer_slack after it idles.
set -- $(after_burst 0)
b0=$(down_bound 300000 0 $TICK_US)
ktap_diag "timer_slack 0: minimum after $1 us (bound $b0), slack timer runs: $2 on an idle CPU, $3 in ksoftirqd, $4 in a task, $5 in the idle task awake"
ktap_bound "timer_slack 0: at the minimum within the bound for timer_slack 0" \
	[ "$1" -ge 0 -a "$1" -le "$b0" ]
# The count above sees a slack timer that wakes an idle CPU: with no slack
# it runs when the sample is due, before any deferrable timer.
ktap_check "timer_slack 0: the slack timer wakes the idle CPU" [ "$2" -ge 1 ]
set -- $(after_burst 80000)
b80=$(down_bound 300000 80000 $TICK_US)
ktap_diag "timer_slack 80000: minimum after $1 us (bound $b80), slack timer runs: $2 on an idle CPU, $3 in ksoftirqd, $4 in a task, $5 in the idle task awake"
ktap_bound "timer_slack 80000: at the minimum within the bound for timer_slack 80000" \
	[ "$1" -ge 0 -a "$1" -le "$b80" ]

tunables_test_end
