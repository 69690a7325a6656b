#!/bin/sh
# Bench part: what the scheduler idle notifier costs per idle period with
# 0, 1 and 4 listeners, in one boot.  Records (BENCHREC lines, see
# /bench.sh):
#
#   hook_ns_per_call    the hook do_idle() runs (static branch + atomic
#                       notifier chain, a private copy in idle_bench.ko)
#                       timed in a loop of 200000 calls, the fastest of 3;
#   loop_ns_per_call    the same loop calling nothing: the kernel without
#                       the series;
#   round_trip_ns       a pipe ping-pong between CPU1 and CPU2 with N real
#                       listeners added to the real chain: each round trip
#                       is two idle periods (one a CPU), so the listeners'
#                       cost shows as the difference to N=0.  The board
#                       always has listeners of its own (the CPU LED
#                       triggers, and the interactive governor once it is
#                       built in or loaded), so here N counts the added
#                       ones (records say "added": true);
#   gov_round_trip_ns   the same ping-pong with the interactive governor
#                       listening (sched_hint 1, and 0 as "interactive-2012")
#                       or not (performance), the speed pinned at the
#                       minimum (see below); "gov" names which;
#   events_per_round_trip  what the listeners saw, divided by the round
#                       trips and listeners: about 4 (START and END on each
#                       of the two CPUs), proof that they ran.
#
# In the private chain N=0 is the hook with nobody listening: with
# CONFIG_JUMP_LABEL a NOP (make check verifies that on the vmlinux), the
# same as the empty loop, which is the kernel without the series.
. /lib/board.sh

ROUNDS=${HOOKCOST_ROUNDS:-${BENCH_REPS:-5}}
TRIPS=${HOOKCOST_TRIPS:-3000}
D=/sys/kernel/debug/idle_bench

# rec LISTENERS METRIC UNIT VALUES [MORE_JSON_FIELDS]
rec() {
	echo "BENCHREC {\"part\":\"hookcost\",\"listeners\":$1,\"metric\":\"$2\",\"unit\":\"$3\",\"values\":[$4]${5:+,$5}}"
}

modprobe idle_bench || { echo "# hookcost: idle_bench module missing" >&2; exit 1; }
# Quiet board: a fixed speed, so the ping-pong does not race a governor.
old_gov=$(cat $POLICY/scaling_governor)
set_governor performance

hook0= hook1= hook2= hook4= loop0= loop1= loop2= loop4=
r=0
while [ $r -lt "$ROUNDS" ]; do
	while read -r n hook loop; do
		eval "hook$n=\"\${hook$n:+\$hook$n,}$hook\""
		eval "loop$n=\"\${loop$n:+\$loop$n,}$loop\""
	done < $D/chain
	r=$((r + 1))
done
for n in 0 1 2 4; do
	eval "rec $n hook_ns_per_call ns \"\$hook$n\""
	eval "rec $n loop_ns_per_call ns \"\$loop$n\""
done

# Alternate the order every round so drift in QEMU's speed does not favour
# one count.
rt0= rt1= rt4= ev1= ev4=
r=0
while [ $r -lt "$ROUNDS" ]; do
	case $((r % 2)) in 0) order="0 1 4" ;; *) order="4 1 0" ;; esac
	for n in $order; do
		echo "$n" > $D/listeners
		before=$(cut -d' ' -f2 $D/listeners)
		out=$(pingpong -a 1 -b 2 -n "$TRIPS") || exit 1
		after=$(cut -d' ' -f2 $D/listeners)
		ns=${out##* }
		eval "rt$n=\"\${rt$n:+\$rt$n,}$ns\""
		if [ "$n" != 0 ]; then
			ev=$(echo "$before $after $TRIPS $n" |
				awk '{ printf "%.2f", ($2 - $1) / $3 / $4 }')
			eval "ev$n=\"\${ev$n:+\$ev$n,}$ev\""
		fi
	done
	r=$((r + 1))
done
echo 0 > $D/listeners
for n in 0 1 4; do
	eval "rec $n round_trip_ns ns \"\$rt$n\" '\"added\":true'"
done
rec 1 events_per_round_trip count "$ev1" '"added":true'
rec 4 events_per_round_trip count "$ev4" '"added":true'

# The governor's own listener, in the real chain: round trips with the
# policy pinned at its minimum (scaling_max_freq = scaling_min_freq), so
# that the speed never changes and every idle exit is at the minimum,
# where interactive's sched_hint test runs (the estimate itself is read
# only after an idle period that outlasted its window, which a ping-pong's
# never do: this is the cost on every other idle exit).  "interactive" has
# sched_hint 1, "interactive-2012" 0, "performance" does not listen (the
# governor's notifier returns at once).  The listener's cost per round
# trip is the difference to performance; the records say "gov".
fmin=$(cat $POLICY/cpuinfo_min_freq)
fmax=$(cat $POLICY/cpuinfo_max_freq)
rtp= rti= rt2=
r=0
while [ $r -lt "$ROUNDS" ]; do
	case $((r % 2)) in
	0) order="performance interactive interactive-2012" ;;
	*) order="interactive-2012 interactive performance" ;;
	esac
	for g in $order; do
		use_gov "$g"
		wr $POLICY/scaling_min_freq "$fmin"
		wr $POLICY/scaling_max_freq "$fmin"
		out=$(pingpong -a 1 -b 2 -n "$TRIPS") || exit 1
		ns=${out##* }
		case $g in
		performance) rtp="${rtp:+$rtp,}$ns" ;;
		interactive) rti="${rti:+$rti,}$ns" ;;
		*) rt2="${rt2:+$rt2,}$ns" ;;
		esac
	done
	r=$((r + 1))
done
wr $POLICY/scaling_max_freq "$fmax"
[ -d $CPUFREQ/interactive ] && wr $CPUFREQ/interactive/sched_hint 1
rec null gov_round_trip_ns ns "$rtp" '"gov":"performance"'
rec null gov_round_trip_ns ns "$rti" '"gov":"interactive"'
rec null gov_round_trip_ns ns "$rt2" '"gov":"interactive-2012"'

set_governor "$old_gov"
rmmod idle_bench
