#!/bin/sh
# boostpulse and boost: a pulse raises the speed to hispeed_freq within a
# timer period and holds it boostpulse_duration, no longer; boost 1 holds
# hispeed_freq on an idle board, boost 0 lets it fall.  Timed in guest
# time from ftrace.  (One of the 23-tunables-* tests: make check
# TESTS=tunables-boost runs it alone.)
. /lib/ktap.sh
. /lib/board.sh

tunables_test_begin 6

# quiet_min: settle at the minimum, then wait (without starting programs,
# which the governor would see as load: nap) until the speed reads the
# minimum.
quiet_min() {
	settle_min 50
	n=0
	while [ $n -lt 10 ]; do
		nap 0.3
		read -r f < $POLICY/scaling_cur_freq
		[ "$f" = "$fmin" ] && return 0
		n=$((n + 1))
	done
	return 1
}
# pulse US: from the minimum, write boostpulse with boostpulse_duration US;
# prints "UP DOWN": us from the write to the speed reaching hispeed_freq,
# and to its first drop below it afterwards (-1: did not happen).  A pulse
# that found the speed above the minimum (the trace shows the speed at the
# write) does not count: up to 3 tries.
pulse() {
	tries=1
	while :; do
		pulse_once "$1"
		start=$(awk -v fmin="$fmin" '
			/cpu_frequency:/ { split($3, f, "="); lvl = f[2] }
			/tracing_mark_write: pulse_start/ { if (lvl == "") { split($4, f, "="); lvl = f[2] }
				print lvl + 0; exit }' /tmp/pulse.trace)
		[ "$start" = "$fmin" ] || [ $tries -ge 3 ] && break
		tries=$((tries + 1))
	done
	awk -v hs="$hispeed" '
		/tracing_mark_write: pulse_start/ { s = $1 }
		/cpu_frequency:/ && s { split($3, f, "=")
			if (f[2] >= hs && !up) up = $1
			if (up && f[2] < hs && !dn) dn = $1 }
		END { printf "%d %d\n", up ? (up - s) * 1e6 : -1,
			dn ? (dn - s) * 1e6 : -1 }' /tmp/pulse.trace
}

pulse_once() {
	wr $IA/boostpulse_duration "$1"
	trace_reset 1024
	trace_event power/cpu_frequency
	quiet_min
	echo 1 > $TRACING/tracing_on
	read -r f < $POLICY/scaling_cur_freq
	echo "pulse_start cur=$f" > $TRACING/trace_marker
	echo 1 > $IA/boostpulse || echo "pulse_failed" > $TRACING/trace_marker
	sleep $(($1 / 1000000 + 1))
	echo 0 > $TRACING/tracing_on
	trace_lines > /tmp/pulse.trace
}
# pulse_held US: a pulse of US; prints "UP DOWN" as pulse does.  The pulse
# ends by a delayed work, at most a tick after US, and the change takes up
# to a tick more on this board: a fall later than US + 3 ticks is tried
# again (up to 3 pulses), as QEMU's host can delay a tick; one before US
# is not.
pulse_held() {
	ptry=1
	while :; do
		set -- $(pulse "$1") "$1"
		ktap_diag "boostpulse ($(($3 / 1000)) ms, try $ptry): >= $hispeed kHz after $1 us, below it again after $2 us"
		[ "$1" -ge 0 ] || grep -E 'pulse|cpu_frequency' /tmp/pulse.trace | head -20 | sed 's/^/# /'
		[ "$2" -ge 0 -a "$2" -le $(($3 + 3 * TICK_US)) ] || [ $ptry -ge 3 ] && break
		ptry=$((ptry + 1))
		set -- "$3"
	done
	echo "$1 $2" > /tmp/pulse.res
}
pulse_held 80000
read -r up down < /tmp/pulse.res
ktap_bound "a boostpulse raises the speed to hispeed_freq within one timer period" \
	[ "$up" -ge 0 -a "$up" -le "$rate" ]
ktap_bound "the speed falls back after boostpulse_duration, not before" \
	[ "$down" -ge 80000 -a "$down" -le $((80000 + 3 * TICK_US)) ]
pulse_held 300000
read -r up down < /tmp/pulse.res
ktap_bound "boostpulse_duration 300000 holds the speed 300 ms" \
	[ "$down" -ge 300000 -a "$down" -le $((300000 + 3 * TICK_US)) ]
wr $IA/boostpulse_duration 80000

settle_min 50
wr $IA/boost 1
ktap_bound "boost 1 raises the speed to hispeed_freq at once" \
	wait_for $POLICY/scaling_cur_freq 2 "$hispeed"
sleep 1
ktap_check "boost 1 holds hispeed_freq on an idle board" [ "$(cur_freq)" -ge "$hispeed" ]
# Traced: what held the speed up, if it did not fall.
trace_reset 1024
trace_event power/cpu_frequency
trace_event cpufreq_interactive/cpufreq_interactive_eval
trace_event sched/sched_switch
echo 1 > $TRACING/tracing_on
echo "boost_off" > $TRACING/trace_marker
wr $IA/boost 0
if wait_min 10; then ok=1; else ok=0; fi
echo 0 > $TRACING/tracing_on
[ $ok = 1 ] || { ktap_diag "at $(cur_freq) kHz 1 s after boost 0; the trace since:"
	trace_lines | grep -v "next_comm=swapper" | tail -n 60 | sed 's/^/# /'
	ps | sed 's/^/# /'; }
ktap_bound "boost 0 lets the speed fall to the minimum" [ $ok = 1 ]

tunables_test_end
