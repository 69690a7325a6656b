#!/bin/sh
# The two-cluster board (make check BOARD=2cluster: dts/
# vexpress-v2p-ca9-2cluster.dts): two cpufreq policies, CPUs 0-1 on
# daughterboard oscillator 0 (200-600 MHz) and CPUs 2-3 on oscillator 1
# (200 MHz-1 GHz), asymmetric capacities, an energy model per cluster.
# Each policy sets and reads back its own oscillator; a burst on a CPU of
# a cluster ramps that policy, and only that one, under interactive
# (cluster_trials=N times each, default 20, at a random phase of the
# tick; ondemand the same, 5 times each, to show the machinery can pass);
# schedutil on both policies makes the scheduler energy aware (EAS: the
# capacities are asymmetric and each cluster has an energy model); taking a whole
# cluster offline stops the governor on its policy and bringing a CPU back
# starts it again, CYCLES times with a burst after each.  Skipped on the
# one-policy board.
. /lib/ktap.sh
. /lib/board.sh

TRIALS=$(cmdline cluster_trials 20)
CYCLES=$(cmdline cluster_cycles 200)
P0=$CPUFREQ/policy0
P2=$CPUFREQ/policy2
ktap_plan 14

if [ ! -d $P2 ]; then
	ktap_skip_rest "one cpufreq policy on this board (BOARD=2cluster has two)"
fi
ktap_eq "two policies: CPUs 0-1 and 2-3" \
	"$(cat $P0/related_cpus) / $(cat $P2/related_cpus)" "0 1 / 2 3"
ktap_eq "each policy lists its own cluster's operating points" \
	"$(xargs < $P0/scaling_available_frequencies) / $(xargs < $P2/scaling_available_frequencies)" \
	"200000 400000 600000 / 200000 400000 600000 800000 1000000"

# userspace on both; each speed set must read back from its own
# oscillator and leave the other policy's alone.
g0=$(cat $P0/scaling_governor) g2=$(cat $P2/scaling_governor)
wr $P0/scaling_governor userspace
wr $P2/scaling_governor userspace
bad=""
for pair in 200000:1000000 600000:200000 400000:800000; do
	wr $P0/scaling_setspeed "${pair%:*}"
	wr $P2/scaling_setspeed "${pair#*:}"
	got="$(cat $P0/cpuinfo_cur_freq):$(cat $P2/cpuinfo_cur_freq)"
	[ "$got" = "$pair" ] || bad="$bad $pair->$got"
done
ktap_eq "each policy's speed reads back from its own oscillator, the other's unchanged" "$bad" ""
wr $P0/scaling_governor "$g0"
wr $P2/scaling_governor "$g2"

c0=$(cat /sys/devices/system/cpu/cpu0/cpu_capacity 2>/dev/null)
c2=$(cat /sys/devices/system/cpu/cpu2/cpu_capacity 2>/dev/null)
ktap_diag "cpu_capacity: cpu0 $c0, cpu2 $c2"
ktap_check "the big cluster has the larger capacity (1024), the little one less" \
	[ "$c2" = 1024 -a "${c0:-1024}" -lt 1024 ]

# The energy model: a performance domain per cluster, its states the
# cluster's operating points.
EM=/sys/kernel/debug/energy_model
em_freqs() {
	for s in "$EM"/cpu$1/ps:*; do cat "$s/frequency"; done 2>/dev/null | sort -n | xargs
}
ktap_eq "an energy model performance domain per cluster, with its own states" \
	"$(em_freqs 0) / $(em_freqs 2)" \
	"200000 400000 600000 / 200000 400000 600000 800000 1000000"

# Bursts under interactive: which policies' speeds changed, from the
# trace (power:cpu_frequency names a CPU of the policy).
# Fresh global tunables: both policies away from interactive, then back.
for p in $P0 $P2; do wr $p/scaling_governor performance; done
for p in $P0 $P2; do wr $p/scaling_governor interactive; done
HS=$(cat $CPUFREQ/interactive/hispeed_freq)
ktap_diag "interactive: hispeed_freq $HS kHz (global tunables: the first policy's maximum)"
# burst_on CPU NAME: a traced burst on CPU; prints the highest speed each
# policy reached during it, the window raises of the other cluster's CPUs,
# and each policy's speed at the burst's start: "P0_KHZ P2_KHZ RAISES
# P0_START P2_START".
# From burn's wakeup (burst_trace): the governor may raise the speed
# before burn writes its start marker.  burn sleeps 200 ms first: starting
# it, a new task, may raise its policy (the hint serves its fork's half a
# CPU: on the little cluster its top, hispeed_freq), and an idle CPU above
# the minimum comes down at its slack timer, 100 ms later; with 100 ms, 3
# little bursts in 20 started at hispeed_freq and showed no ramp.
burst_on() {
	trace_reset 1024
	trace_event power/cpu_frequency
	trace_event cpufreq_interactive/cpufreq_interactive_eval
	trace_wakeups burn
	settle_min 50
	wait_for $P2/scaling_cur_freq 50 200000
	read -r _f0 < $P0/scaling_cur_freq
	read -r _f2 < $P2/scaling_cur_freq
	echo 1 > $TRACING/tracing_on
	burn -c "$1" -w 200 -j $TICK_US -t 200 -n "$2"
	echo 0 > $TRACING/tracing_on
	trace_lines > /tmp/burst.trace
	# The speeds when burn woke for the burst (before burst_trace's
	# first line): "P0 P2".
	start=$(awk -v m="tracing_mark_write: $2_start" -v f0="$_f0" -v f2="$_f2" '
		BEGIN { lvl[0] = f0; lvl[2] = f2 }
		/cpu_frequency:/ { split($3, s, "="); split($4, c, "=")
			lvl[(c[2] < 2) ? 0 : 2] = s[2] + 0 }
		/sched_wakeup: comm=burn / { w0 = lvl[0]; w2 = lvl[2]; w = 1 }
		index($0, m) { if (!w) { w0 = lvl[0]; w2 = lvl[2] }
			printf "%d %d\n", w0, w2; exit }' /tmp/burst.trace)
	burst_trace "$2" < /tmp/burst.trace | awk -v n="$2" -v cpu="$1" \
		-v start="$start" '
		$3 == n "_end" { exit }
		/cpu_frequency:/ { split($3, s, "="); split($4, c, "=")
			p = (c[2] < 2) ? 0 : 2
			if (s[2] + 0 > hi[p]) hi[p] = s[2] + 0 }
		/decision=raise/ { split($3, c, "=")
			if ((c[2] < 2) != (cpu < 2)) other++ }
		END { printf "%d %d %d %s\n", hi[0], hi[2], other, start }'
}
# cluster_bursts N: N bursts on each cluster (alternating its CPUs); the
# failed ones in $bad.
cluster_bursts() {
	bad=""
	i=0
	_n=$1
	while [ $i -lt "$_n" ]; do
		set -- $(burst_on $((i % 2)) little$i)
		[ "$1" -ge "$HS" ] && [ "$3" = 0 ] || bad="$bad little$i:$1/$2/$3@$4/$5"
		set -- $(burst_on $((2 + i % 2)) big$i)
		[ "$2" -ge "$HS" ] && [ "$3" = 0 ] || bad="$bad big$i:$1/$2/$3@$4/$5"
		i=$((i + 1))
	done
}
cluster_bursts $TRIALS
[ -z "$bad" ] || ktap_diag "policy0/policy2 highest speeds (kHz)/window raises of the other cluster's CPUs@policy0/policy2 speeds at the start, of the failed bursts:$bad"
# The other cluster: no window of its CPUs raises its speed (a hint, for
# another task waking there, may: the shell).
ktap_bound "a burst on a CPU of a cluster ramps that policy to hispeed_freq, no window of the other cluster asks for more ($TRIALS trials each)" \
	[ -z "$bad" ]

# The same bursts under ondemand (no windows: "other" stays 0).
for p in $P0 $P2; do wr $p/scaling_governor ondemand; done
HS_IA=$HS
HS=$(cat $P0/cpuinfo_max_freq)
cluster_bursts 5
[ -z "$bad" ] || ktap_diag "ondemand: policy0/policy2 highest speeds (kHz) of the failed bursts:$bad"
ktap_bound "ondemand: a burst on a CPU of a cluster raises that policy to policy0's maximum or above (5 trials each)" \
	[ -z "$bad" ]
HS=$HS_IA

# Energy-aware scheduling: the scheduler builds a performance domain per
# cluster when every policy runs schedutil (asymmetric capacities, an
# energy model, frequency invariance); a policy that leaves schedutil
# then takes them down, and the kernel says so (without SCHED_DEBUG the
# only message: "Disabling EAS, schedutil is mandatory").
for p in $P0 $P2; do wr $p/scaling_governor schedutil; done
ktap_eq "schedutil on both policies: sched_energy_aware is 1" \
	"$(cat /proc/sys/kernel/sched_energy_aware 2>&1)" 1
sleep 0.5
n0=$(dmesg | grep -c 'Disabling EAS, schedutil is mandatory')
wr $P2/scaling_governor interactive
n=0
while [ $n -lt 30 ] && [ "$(dmesg | grep -c 'Disabling EAS, schedutil is mandatory')" = "$n0" ]; do
	sleep 0.1
	n=$((n + 1))
done
ktap_diag "$(dmesg | grep 'Disabling EAS' | tail -1)"
ktap_check "EAS was on under schedutil: policy2 leaving it takes the perf domains down (kernel: Disabling EAS)" \
	[ "$(dmesg | grep -c 'Disabling EAS, schedutil is mandatory')" -gt "$n0" ]

# Global tunables shared by both clusters, made by the big one (policy2
# took interactive first): hispeed_freq is its maximum, above the little
# cluster's range; it reads back and writes back with both attached (a
# speed within either policy's range is taken, each policy uses the
# nearest it has), and one outside both is refused.
wr $P0/scaling_governor performance
f2max=$(cat $P2/cpuinfo_max_freq)
got="$(cat $CPUFREQ/interactive/hispeed_freq)"
wr $P0/scaling_governor interactive
wr $CPUFREQ/interactive/hispeed_freq "$got" && got="$got written back" || got="$got refused"
wr $CPUFREQ/interactive/hispeed_freq 100000 && got="$got, 100000 taken" || got="$got, 100000 refused"
ktap_eq "global tunables made by the big cluster: hispeed_freq its maximum, written back with the little one attached; 100000 kHz refused" \
	"$got, $(cat $CPUFREQ/interactive/hispeed_freq)" "$f2max written back, 100000 refused, $f2max"

# Fresh global tunables made by the little cluster for what follows.
for p in $P0 $P2; do wr $p/scaling_governor performance; done
for p in $P0 $P2; do wr $p/scaling_governor interactive; done

# Whole-cluster hotplug: the last CPU of policy2 offline stops the
# governor there (the policy has no CPU); one back starts it again.
trace_reset 1024
trace_event power/cpu_frequency
echo 1 > $TRACING/tracing_on
bad="" ok=0 i=0
while [ $i -lt "$CYCLES" ]; do
	set_online 3 0 && set_online 2 0 || bad="$bad $i:offline"
	[ -z "$(cat $P2/affected_cpus 2>/dev/null)" ] || bad="$bad $i:cpus=$(cat $P2/affected_cpus)"
	c=$((2 + i % 2))
	set_online $c 1 || bad="$bad $i:online"
	[ "$(cat $P2/scaling_governor)" = interactive ] || bad="$bad $i:gov=$(cat $P2/scaling_governor)"
	read -r f2 < $P2/scaling_cur_freq
	echo "cyc$i cur=$f2" > $TRACING/trace_marker
	burn -c $c -t 300 -n "hp$i"
	set_online $((5 - c)) 1 || bad="$bad $i:online2"
	ok=$((ok + 1)) i=$((i + 1))
done
echo 0 > $TRACING/tracing_on
# Each cycle's burst had policy2 at or above hispeed_freq (its speed when
# the CPU came back, or a cpu_frequency event of CPU 2 or 3, before the
# burst's end).
ramped=$(trace_lines | awk -v hs="$HS" '
	$3 ~ /^cyc[0-9]+$/ { on = 1; split($4, f, "="); hit = (f[2] + 0 >= hs) }
	on && /cpu_frequency:/ { split($3, s, "="); split($4, c, "=")
		if (c[2] >= 2 && s[2] + 0 >= hs) hit = 1 }
	$3 ~ /^hp[0-9]+_end$/ { if (on && hit) n++; else if (on && miss++ < 8) ms = ms " " $3; on = 0 }
	END { print n + 0, ms }')
set -- $ramped
ramped=$1
shift
[ $# = 0 ] || ktap_diag "bursts that did not raise policy2: $*"
ktap_diag "$ok whole-cluster hotplug cycles; $ramped of their bursts raised policy2 to >= $HS kHz"
[ -z "$bad" ] || ktap_diag "went wrong:$(echo $bad | cut -c1-400)"
ktap_eq "the big cluster offline and back $CYCLES times: no CPU left in policy2 while offline, interactive again after" \
	"$ok${bad:+ $bad}" "$CYCLES"
ktap_bound "after each cycle a burst on the returning CPU raises policy2 to hispeed_freq" \
	[ "$ramped" = "$CYCLES" ]
ktap_eq "the tunables kept across the cycles" \
	"$(cat $CPUFREQ/interactive/hispeed_freq)" "$HS"
ktap_eq "every CPU online after the cycles" "$(cat /sys/devices/system/cpu/online)" "0-3"
trace_reset 1024
ktap_done
