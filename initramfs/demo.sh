#!/bin/sh
# The board demo (make run): the cpufreq policy, then CPU-bound bursts on
# each CPU in turn and a pause, printing every CPU's LED and the speed as
# they change; last, the LED idle event counts in the kernel log.
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

# One line: each CPU's LED (# lit, . dark) and the current speed.
state() {
	leds=""
	j=0
	while [ $j -lt "$NCPUS" ]; do
		b=$(cat "$(led_of_cpu $j)/brightness")
		[ "$b" != 0 ] && leds="$leds cpu$j:#" || leds="$leds cpu$j:."
		j=$((j + 1))
	done
	printf '[%6s s] %-34s  LEDs%s  %4d MHz\n' "$(cut -d' ' -f1 /proc/uptime)" \
		"$1" "$leds" $(($(cur_freq) / 1000))
}

echo "=== bursts: 1.2 s of work pinned to each CPU, then 1 s idle"
k=0
while [ $k -lt "$NCPUS" ]; do
	taskset -p -c $(((k + 1) % NCPUS)) $$ >/dev/null
	led_phase busy $k
	burn -c $k -t 1200 -n demo &
	pid=$!
	i=0
	while [ $i -lt 5 ]; do usleep 200000; state "cpu$k busy"; i=$((i + 1)); done
	wait $pid
	led_phase idle $k
	i=0
	while [ $i -lt 4 ]; do usleep 250000; state "idle"; i=$((i + 1)); done
	led_phase end
	k=$((k + 1))
done
taskset -p -c 0-$((NCPUS - 1)) $$ >/dev/null

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
