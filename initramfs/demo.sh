#!/bin/sh
# The board demo (make run): the cpufreq policy, then a CPU-bound burst on
# each CPU in turn and an idle pause, recorded with ftrace while the host
# samples the LEDs; then the timeline of the speed against the bursts, one
# line per change, and a summary per phase; last, the frequency statistics
# and the LED idle event counts in the kernel log.
. /lib/board.sh

echo "=== cpufreq policy0: driver $(cat $POLICY/scaling_driver), CPUs $(cat $POLICY/related_cpus)"
echo "    frequencies (kHz): $(cat $POLICY/scaling_available_frequencies)"
echo "    governors: $(cat $POLICY/scaling_available_governors)"
echo "    governor: $(cat $POLICY/scaling_governor), now $(cur_freq) kHz"
if [ -d $CPUFREQ/interactive ]; then
	for f in $CPUFREQ/interactive/*; do
		# boostpulse is write-only: nothing to show
		case "$(ls -l "$f")" in -r*) ;; *) continue ;; esac
		echo "    interactive/$(basename "$f") = $(cat "$f")"
	done
fi

# The phases are recorded, not watched: ftrace keeps the speed changes and
# the bursts' wakeups and markers, the host samples the board's LED
# register from outside (boot/qemu.py), and nothing here runs while a
# phase is on (a watching shell loop would be load the governor sees).
trace_reset 2048
trace_event power/cpu_frequency
trace_wakeups burn
# Switching events on patches kernel text on every CPU: settle first.
settle_min 50
echo 1 > $TRACING/tracing_on
read -r f < $POLICY/scaling_cur_freq
echo "trace_start cur=$f" > $TRACING/trace_marker

BUSY_MS=1200
IDLE_S=1
echo "=== bursts: $BUSY_MS ms of work pinned to each CPU, then $IDLE_S s idle"
echo "    (the host prints its LED samples of each phase; the guest's timeline follows)"
k=0
while [ $k -lt "$NCPUS" ]; do
	# The shell waits on another CPU; burn marks its own phases (-P):
	# busy from its start, idle from its end.
	taskset -p -c $(((k + 1) % NCPUS)) $$ >/dev/null
	burn -c $k -w 100 -t $BUSY_MS -n "cpu${k}_burst" -P
	sleep $IDLE_S
	echo "idle_end cpu=$k" > $TRACING/trace_marker
	led_phase end
	k=$((k + 1))
done
echo 0 > $TRACING/tracing_on
taskset -p -c 0-$((NCPUS - 1)) $$ >/dev/null

# The timeline: one line per change, guest time from the first burst.
echo "=== timeline (guest time, ftrace)"
trace_lines | awk -v fmin="$(cat $POLICY/scaling_min_freq)" '
	function ms(t) { return (t - t0) * 1000 }
	function line(t, what) { printf "    %8.3f s  %s\n", t - t0, what }
	/tracing_mark_write: trace_start/ { split($4, f, "="); cur = f[2] / 1000; next }
	# A burst begins when burn wakes before its start marker: speed
	# changes between the two are kept and shown after the start.
	/sched_wakeup: comm=burn / {
		if (busy != "") next
		# An earlier wakeup was not the burst: show what it kept.
		for (i = 0; i < nb; i++) change(bt[i], bf[i], bc[i])
		wake = $1; wcur = cur; nb = 0
		next
	}
	/tracing_mark_write: cpu[0-9]+_burst_start/ {
		split($3, n, "_"); c = n[1]
		b = (wake && wake > last) ? wake : $1
		if (!t0) t0 = b
		line(b, sprintf("%s burst begins (%d MHz)", c, b == wake ? wcur : cur))
		busy = c; bstart = b; bend = 0; up = 0; down = 0
		top = b == wake ? wcur : cur
		for (i = 0; i < nb; i++) change(bt[i], bf[i], bc[i])
		nb = 0
		next
	}
	/tracing_mark_write: cpu[0-9]+_burst_end/ {
		last = $1; bend = $1
		line($1, sprintf("%s burst ends (%d MHz)", busy, cur))
		next
	}
	/tracing_mark_write: idle_end/ {
		if (busy != "") {
			s = sprintf("%s busy %.2f s: ", busy, bend - bstart)
			s = s (up ? sprintf("%d MHz reached in %.0f ms", top, (up - bstart) * 1000) : "stayed at " cur " MHz")
			s = s (down ? sprintf("; back to %d MHz %.0f ms after the burst", fmin / 1000, (down - bend) * 1000) : "; not back at the minimum in the idle phase")
			sum[++ns] = s
		}
		line($1, sprintf("idle phase after the %s burst ends (%d MHz)", busy, cur))
		busy = ""
		next
	}
	# A speed change from FROM to TO MHz at time T.
	function change(t, from, to) {
		what = sprintf("speed %d -> %d MHz", from, to)
		if (busy != "" && !bend) {
			what = what sprintf(", +%.0f ms after the burst began", (t - bstart) * 1000)
			if (to > top) { top = to; up = t }
		} else if (busy != "" && bend) {
			what = what sprintf(", %.0f ms after the burst ended", (t - bend) * 1000)
			if (to * 1000 == fmin && !down) down = t
		}
		if (t0) line(t, what)
	}
	/cpu_frequency:/ {
		split($3, f, "="); c2 = f[2] / 1000
		if (c2 == cur) next
		if (busy == "" && wake > last) { bt[nb] = $1; bf[nb] = cur; bc[nb] = c2; nb++ }
		else change($1, cur, c2)
		cur = c2
		next
	}
	END {
		print "=== phases"
		for (i = 1; i <= ns; i++) print "    " sum[i]
	}'
trace_reset 1024

echo "=== frequency transitions (cpufreq stats, time in 10 ms units)"
cat $POLICY/stats/time_in_state 2>/dev/null | sed 's/^/    /'
echo "    total transitions: $(cat $POLICY/stats/total_trans 2>/dev/null)"

echo "=== LED idle events per CPU (sched idle notifier), into the kernel log"
if [ -f /sys/kernel/debug/arm_leds/idle_events ]; then
	echo report > /sys/kernel/debug/arm_leds/idle_events
	dmesg | grep "LED: .*idle-start" | tail -n "$NCPUS"
	cat /sys/kernel/debug/arm_leds/idle_events | sed 's/^/    /'
else
	echo "    (no arm_leds/idle_events: the LED patch is not applied)"
fi
