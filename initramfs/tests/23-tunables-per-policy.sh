#!/bin/sh
# Per-policy tunables: the cpufreq-dt driver is rebound to ask for a
# governor per policy (modules/cpufreq_dt_per_policy), and the tunables
# must live in policy0/interactive/ with their own values, from their
# defaults.  On the two-cluster board (BOARD=2cluster) policy2 has its
# own too: a write to one leaves the other alone, and a burst on a CPU of
# each cluster ramps that policy to its own hispeed_freq.  (One of the
# 23-tunables-* tests: make check TESTS=tunables-per-policy runs it alone.)
. /lib/ktap.sh
. /lib/board.sh

P2=$CPUFREQ/policy2
TWO="the two-cluster board's second policy"

# ramp_to CPU HS CPUS N: N traced bursts on CPU, each started at a
# random phase of the tick; the speed each first reached at or above HS
# on a CPU of CPUS (an awk regexp of CPU numbers), and the window raises
# of the other CPUs during it ("+N"), of the bursts that did not go to
# HS exactly with none of those.  (The scheduler's hint may raise a new
# task's CPU below HS first: its estimate of the task at its first
# wakeups is its fork's half a CPU, decayed by its sleep; and a hint for
# another task, the shell, may raise another CPU.)
ramp_to() {
	trace_reset 1024
	trace_event power/cpu_frequency
	trace_event cpufreq_interactive/cpufreq_interactive_eval
	trace_wakeups burn
	_bad=""
	_i=0
	while [ $_i -lt "$4" ]; do
		settle_min 50
		[ -d $P2 ] && wait_for $P2/scaling_cur_freq 50 "$(cat $P2/scaling_min_freq)"
		echo > $TRACING/trace
		echo 1 > $TRACING/tracing_on
		burn -c "$1" -w 300 -j $TICK_US -t 300 -n pp$_i
		echo 0 > $TRACING/tracing_on
		_got=$(trace_lines | burst_trace pp$_i | awk -v hs="$2" -v cpus="^($3)\$" -v n=pp$_i '
			$3 == n "_end" { exit }
			/cpu_frequency:/ && !first { split($3, s, "="); split($4, c, "=")
				if (c[2] ~ cpus && s[2] + 0 >= hs) first = s[2] }
			/decision=raise/ { split($3, c, "="); if (c[2] !~ cpus) other++ }
			END { printf "%s%s\n", first ? first : "none", other ? "+" other : "" }')
		[ "$_got" = "$2" ] || _bad="$_bad $_got"
		_i=$((_i + 1))
	done
	echo "${_bad# }"
}

tunables_test_begin 9

# The driver is unbound and bound under the governor: its exit and init
# run from the driver's removal and probe.
if modprobe cpufreq_dt_per_policy && wait_for $POLICY/scaling_driver 20 cpufreq-dt; then
	ktap_ok "cpufreq-dt rebound to ask for a governor per policy"
	set_governor interactive
	ktap_check "the tunables live in policy0/interactive/, not cpufreq/interactive/" \
		[ -d $POLICY/interactive -a ! -e $IA ]
	PA=$POLICY/interactive
	got=""
	for t in $(tunables); do
		d=$(tunable_default $t)
		[ "$d" = - ] || [ "$(cat $PA/$t 2>/dev/null)" = "$d" ] || got="$got $t"
	done
	ktap_eq "policy0's tunables start at their defaults" "${got# }" ""
	# The policy's own hispeed_freq is the speed a burst ramps to (not
	# the global tunables' default, fmax): the highest speed but one.
	hs0=$(xargs < $POLICY/scaling_available_frequencies | awk '{ print $(NF - 1) }')
	wr $PA/hispeed_freq $hs0
	cpus0=$(xargs < $POLICY/related_cpus | tr ' ' '|')
	ktap_diag "policy0's hispeed_freq $hs0 (global default $fmax)"
	ktap_eq "a burst ramps to policy0's own hispeed_freq, in each of 5 bursts" \
		"$(ramp_to 1 $hs0 "$cpus0" 5)" ""
	if [ -d $P2 ]; then
		wr $P2/scaling_governor performance
		wr $P2/scaling_governor interactive
		max2=$(cat $P2/cpuinfo_max_freq)
		ktap_eq "policy2's tunables are its own (its hispeed_freq its maximum)" \
			"$(cat $P2/interactive/hispeed_freq)" "$max2"
		hs2=$(xargs < $P2/scaling_available_frequencies | awk '{ print $(NF - 1) }')
		wr $P2/interactive/hispeed_freq $hs2
		ktap_eq "a write to policy2's hispeed_freq leaves policy0's alone" \
			"$(cat $PA/hispeed_freq)" $hs0
		# Each cluster's burst ramps its own policy to its own speed; no
		# window of the other cluster's CPUs asks for more.
		ktap_diag "hispeed_freq: policy0 $hs0, policy2 $hs2 (bursts on cpu1 and cpu3)"
		ktap_eq "a burst on a CPU of each cluster ramps its own policy to its own hispeed_freq, the other cluster left alone (20 bursts each)" \
			"$(ramp_to 1 $hs0 '0|1' 20)$(ramp_to 3 $hs2 '2|3' 20)" ""
	else
		ktap_skip "policy2's tunables are its own (its hispeed_freq its maximum)" "$TWO"
		ktap_skip "a write to policy2's hispeed_freq leaves policy0's alone" "$TWO"
		ktap_skip "a burst on a CPU of each cluster ramps its own policy to its own hispeed_freq, the other cluster left alone (20 bursts each)" "$TWO"
	fi
	set_governor performance
	set_governor interactive
	ktap_eq "a new governor instance on the policy starts from the defaults" \
		"$(cat $PA/hispeed_freq)" "$fmax"
	rmmod cpufreq_dt_per_policy
	wait_for $POLICY/scaling_driver 20 cpufreq-dt
	set_governor interactive
	global_again() { [ -d $IA ] && [ ! -e $POLICY/interactive ]; }
	if ! global_again; then
		ktap_diag "governor $(cat $POLICY/scaling_governor 2>&1); $(ls -d $IA $POLICY/interactive 2>&1 | tr '\n' ' ')"
	fi
	ktap_check "rebound as before, the tunables are global again" global_again
else
	ktap_fail "cpufreq-dt rebound to ask for a governor per policy"
	for t in "the tunables live in policy0/interactive/, not cpufreq/interactive/" \
		"policy0's tunables start at their defaults" \
		"a burst ramps to policy0's own hispeed_freq, in each of 5 bursts" \
		"policy2's tunables are its own (its hispeed_freq its maximum)" \
		"a write to policy2's hispeed_freq leaves policy0's alone" \
		"a burst on a CPU of each cluster ramps its own policy to its own hispeed_freq, the other cluster left alone (20 bursts each)" \
		"a new governor instance on the policy starts from the defaults" \
		"rebound as before, the tunables are global again"; do
		ktap_fail "$t"
	done
	rmmod cpufreq_dt_per_policy 2>/dev/null
fi

tunables_test_end
