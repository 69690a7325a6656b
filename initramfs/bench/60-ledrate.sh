#!/bin/sh
# Bench part: LED register writes per second, the idle notifier against
# the path it replaces, in one boot.  Stock 6.1 calls ledtrig_cpu() from
# arch_cpu_idle_enter() and arch_cpu_idle_exit(), on every pass of the
# hardware idle loop; the series calls it from the idle notifier, once at
# the start and once at the end of each scheduler idle period.  Each call
# sets the CPU's LED (one register write on this board).  Over the same
# seconds this part counts both:
#
#   notifier_writes  the notifier's calls: START + END events of
#                    <debugfs>/arm_leds/idle_events, all CPUs
#   stock_writes     what stock 6.1 would have written: 2 x the hardware
#                    idle entries (power:cpu_idle, entry events), all CPUs
#
# in two phases of LEDRATE_SECONDS (10) each: "idle" (nothing runs) and
# "light" (a 10 % load on CPU1 in 2 ms stretches, 50 times a second).
# Records (BENCHREC):
#   {"part":"ledrate","phase":P,"seconds":S,"notifier_writes":N,
#    "stock_writes":M,"cpuidle_driver":D}
# cpuidle_driver says whether CPU PM notifiers can run at all here: they
# are sent by cpuidle drivers around states that lose context ("none":
# never).
. /lib/board.sh

SECS=${LEDRATE_SECONDS:-10}
EV=/sys/kernel/debug/arm_leds/idle_events
[ -f $EV ] || { echo "# ledrate: $EV missing" >&2; exit 1; }
drv=$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none)

# events: the sum of START and END counts over all CPUs.
events() {
	awk '{ n += $2 + $3 } END { print n + 0 }' $EV
}

# phase NAME CMD...: count over SECS seconds while CMD runs (or sleep).
phase() {
	_name=$1
	shift
	trace_reset 8192
	trace_event power/cpu_idle
	settle_min 50 >/dev/null 2>&1 || true
	_e0=$(events)
	echo 1 > $TRACING/tracing_on
	"$@"
	echo 0 > $TRACING/tracing_on
	_e1=$(events)
	# Entries only (state 4294967295 is the exit).
	_hw=$(grep 'cpu_idle:' $TRACING/trace | grep -vc 'state=4294967295')
	trace_reset 1024
	echo "BENCHREC {\"part\":\"ledrate\",\"phase\":\"$_name\",\"seconds\":$SECS,\"notifier_writes\":$((_e1 - _e0)),\"stock_writes\":$((2 * _hw)),\"cpuidle_driver\":\"$drv\"}"
	echo "# ledrate $_name: notifier $((_e1 - _e0)), stock $((2 * _hw)) writes in $SECS s" >&2
}

phase idle sleep "$SECS"
phase light burn -c 1 -t $((SECS * 1000)) -d 2000:20000 -n ledrate
