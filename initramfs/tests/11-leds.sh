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

k=0
while [ $k -lt "$NCPUS" ]; do
	led_busy_idle $k 20
	set -- $LED_SAMPLES
	busy_lit=$1 busy_n=$2 idle_lit=$3 idle_n=$4
	ktap_diag "cpu$k LED: lit in $busy_lit/$busy_n samples busy, $idle_lit/$idle_n idle"
	ktap_check "cpu$k busy lights its LED" led_lit "$busy_lit" "$busy_n"
	ktap_check "cpu$k idle darkens its LED" led_dark "$idle_lit" "$idle_n"
	k=$((k + 1))
done
ktap_done
