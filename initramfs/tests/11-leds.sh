#!/bin/sh
# The board's CPU activity LEDs: v2m:green:user3..6 carry the cpu0..cpu3
# triggers; a CPU kept busy lights its LED, an idle one darkens it.  The
# led_phase markers let the host sample the SYS_LED register from outside
# the guest during each phase (boot/qemu.py, ci/check.py).
. /lib/ktap.sh
. /lib/board.sh

ktap_plan $((1 + 2 * NCPUS))

missing=""
k=0
while [ $k -lt "$NCPUS" ]; do
	l=$(led_of_cpu $k) || missing="$missing cpu$k"
	[ "$l" = "/sys/class/leds/v2m:green:user$((k + 3))" ] || missing="$missing cpu$k@$l"
	k=$((k + 1))
done
ktap_eq "LEDs user3..user$((NCPUS + 2)) carry triggers cpu0..cpu$((NCPUS - 1))" "$missing" ""

# sample_led CPU N: sample the brightness of cpu CPU's LED N times, 30 ms
# apart; print "LIT TOTAL".  A count, not a time: on a loaded host the
# guest may run slowly, and every sample must fall inside the phase.
sample_led() {
	b=$(led_of_cpu "$1")/brightness
	lit=0
	n=0
	while [ $n -lt "$2" ]; do
		[ "$(cat "$b")" != 0 ] && lit=$((lit + 1))
		n=$((n + 1))
		usleep 30000
	done
	echo "$lit $n"
}

k=0
while [ $k -lt "$NCPUS" ]; do
	# Watch from another CPU, so the watcher does not light the LED.
	taskset -p -c $(((k + 1) % NCPUS)) $$ >/dev/null
	led_phase busy $k
	# Busy until killed: the phase lasts as long as the sampling does.
	burn -c $k -t 600000 -n led &
	pid=$!
	usleep 200000
	set -- $(sample_led $k 20)
	busy_lit=$1 busy_n=$2
	kill -0 $pid 2>/dev/null || ktap_diag "cpu$k: burn ended before the sampling"
	kill $pid
	wait $pid 2>/dev/null
	led_phase idle $k
	usleep 200000
	set -- $(sample_led $k 20)
	idle_lit=$1 idle_n=$2
	led_phase end
	ktap_diag "cpu$k LED: lit in $busy_lit/$busy_n samples busy, $idle_lit/$idle_n idle"
	# lit in at least 80% of the samples while busy, at most 20% idle
	ktap_check "cpu$k busy lights its LED" \
		[ "$busy_n" -ge 10 -a $((busy_lit * 10)) -ge $((busy_n * 8)) ]
	ktap_check "cpu$k idle darkens its LED" \
		[ "$idle_n" -ge 10 -a $((idle_lit * 10)) -le $((idle_n * 2)) ]
	k=$((k + 1))
done
taskset -p -c 0-$((NCPUS - 1)) $$ >/dev/null
ktap_done
