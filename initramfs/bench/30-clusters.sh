#!/bin/sh
# Bench part: the governors on a board of several cpufreq policies (the
# two-cluster board, BOARD=2cluster: make bench BOARD=2cluster), with
# workloads the scheduler places itself, so that energy-aware scheduling
# (EAS, on with schedutil on every policy, asymmetric capacities and an
# energy model) chooses the cluster as it would on a phone.  On a board of
# one policy it records why it did nothing and exits 0.
#
# Workloads (wl, unpinned, each its work at the biggest CPU's top speed
# done at the rate of the CPU it runs on, cur/max * cpu_capacity/1024:
# the guest's own closed loop, so a burst placed on the little cluster
# or left at a low speed takes longer in guest time, as on hardware):
#   tap    wl tap -f -s -n 10 -i 1500 -b 100: ten bursts of 100 ms of work
#   frame  wl frame -s -t 5000: 60 Hz for 5 s, 5 ms of work a frame
#   idle   wl idle -t 10000 -l 1000
# Governors (BENCH_GOVS, on every policy): interactive (its defaults: with
# global tunables, hispeed_freq is the maximum of the policy that made
# them, policy0's: the little cluster's top), interactive-hsmax (the same
# with hispeed_freq the highest maximum of any policy, as a board would
# tune it), schedutil, ondemand, conservative, performance, powersave;
# also "interactive-2012", interactive with sched_hint 0.  BENCH_REPS (5) runs of each cell,
# interleaved as in the governors part (rounds in /lib/board.sh).
#
# Records ("part":"clusters"):
#   "kind":"board"  per policy: its CPUs, OPPs (kHz), the energy model's
#                   table from debugfs (uW), each CPU's cpu_capacity;
#                   sched_energy_aware; HZ
#   "kind":"cell"   gov, workload, rep, wl (its summary line), t0, t1,
#                   busy {"CPU": {"kHz": seconds}}  time each CPU was not
#                            idle (power:cpu_idle) at its policy's speed
#                            (power:cpu_frequency), between the cell's
#                            markers: what the energy model is applied to
#                   marks [[t, name, cpu, seq], ..]  the workload's
#                            markers, a start at wl's wakeup for it
#                   wake N   governor callbacks between idle_start and
#                            idle_end that may wake a CPU (GOV_FN of the
#                            governors part)
#                   wake_fn {"FUNCTION@CPU": N}  those, by callback and CPU
#                   deferred N  runs of interactive_timer there: a
#                            deferrable timer, it never wakes a CPU
#                   eas_off  "Disabling EAS" messages the kernel printed
#                            when this cell's governor replaced the
#                            previous cell's: one when that was schedutil
#                            and EAS was on through it
#                   prev     the previous cell's governor
# The host (ci/bench_clusters.py) applies each cluster's energy model.
. /lib/board.sh

REPS=${BENCH_REPS:-5}
GOVS=${BENCH_GOVS:-interactive interactive-hsmax schedutil ondemand conservative performance powersave}
# This part's workloads among BENCH_WORKLOADS (all three when none is).
WORKLOADS=
for w in ${BENCH_WORKLOADS:-tap frame idle}; do
	case $w in tap | frame | idle) WORKLOADS="$WORKLOADS $w" ;; esac
done
[ -n "$WORKLOADS" ] || WORKLOADS="tap frame idle"
TAP=${BENCH_CL_TAP:--n 10 -i 1500 -b 100}
FRAME=${BENCH_CL_FRAME:--t 5000}
IDLE=${BENCH_CL_IDLE:--t 10000 -l 1000}
SETTLE=${BENCH_SETTLE:-1}
GOV_FN='^(interactive_timer|interactive_slack_timer|interactive_up_work|interactive_down_work|interactive_hint_work|dbs_work_handler|sugov_work)$'

rec() {
	echo "BENCHREC {\"part\":\"clusters\",$1}"
}

POLICIES=$(ls -d $CPUFREQ/policy* 2>/dev/null)
if [ "$(echo $POLICIES | wc -w)" -lt 2 ]; then
	rec "\"kind\":\"skip\",\"why\":\"one cpufreq policy on this board (BOARD=2cluster has two)\""
	exit 0
fi
case "$REPS" in ''|*[!0-9]*|0) echo "bad BENCH_REPS '$REPS'" >&2; exit 1 ;; esac

# gov_all GOV: GOV on every policy, the interactive variants set up.  Its
# variables are named apart from rounds' _g, _w and _r: a shell function
# shares its caller's (a first version's _g turned the rest of an
# interactive-hsmax round into plain interactive).
gov_all() {
	_ga=${1%-2012}
	_ga=${_ga%-hsmax}
	for _gp in $POLICIES; do
		wr $_gp/scaling_governor "$_ga" || return 1
	done
	[ "$_ga" = interactive ] || return 0
	# The defaults, made when the first policy (policy0) took the
	# governor: read once (HS_DEFAULT), set again when the previous
	# cell ran another interactive variant.
	[ -n "$HS_DEFAULT" ] || HS_DEFAULT=$(cat $CPUFREQ/interactive/hispeed_freq)
	_gh=1 _ghs=$HS_DEFAULT
	case $1 in
	*-2012) _gh=0 ;;
	*-hsmax) _ghs=$HS_MAX ;;
	esac
	wr $CPUFREQ/interactive/sched_hint $_gh &&
		wr $CPUFREQ/interactive/hispeed_freq "$_ghs"
}
HS_DEFAULT=
HS_MAX=0
for p in $POLICIES; do
	m=$(cat $p/cpuinfo_max_freq)
	[ "$m" -gt "$HS_MAX" ] && HS_MAX=$m
done

# wait_all_min DS: every policy at its minimum, up to DS deciseconds.
wait_all_min() {
	for _p in $POLICIES; do
		wait_for $_p/scaling_cur_freq "$1" "$(cat $_p/scaling_min_freq)" || return 1
	done
}

json_list() {
	echo "[$(echo $1 | tr ' ' ',')]"
}

old_govs=
for p in $POLICIES; do old_govs="$old_govs $(cat $p/scaling_governor)"; done
old_buf=$(cat $TRACING/buffer_size_kb)

# --- the board ---------------------------------------------------------
gov_all schedutil || { echo "cannot select schedutil on every policy" >&2; exit 1; }
pols=
for p in $POLICIES; do
	cpus=$(cat $p/related_cpus)
	first=${cpus%% *}
	em=
	for ps in /sys/kernel/debug/energy_model/cpu$first/ps:*; do
		[ -d "$ps" ] || continue
		em="$em${em:+,}{\"khz\":$(cat "$ps/frequency"),\"power_uw\":$(cat "$ps/power")}"
	done
	caps=
	for c in $cpus; do
		caps="$caps${caps:+,}\"$c\":$(cat /sys/devices/system/cpu/cpu$c/cpu_capacity 2>/dev/null || echo 1024)"
	done
	pols="$pols${pols:+,}{\"policy\":\"$(basename $p)\",\"cpus\":$(json_list "$cpus"),\
\"freqs_khz\":$(json_list "$(cat $p/scaling_available_frequencies)"),\
\"min_khz\":$(cat $p/cpuinfo_min_freq),\"max_khz\":$(cat $p/cpuinfo_max_freq),\
\"em\":[$em],\"capacity\":{$caps}}"
done
hz=$(zcat /proc/config.gz 2>/dev/null | sed -n 's/^CONFIG_HZ=//p')
# Interactive's default hispeed_freq (HS_DEFAULT): fresh tunables, made by
# policy0 (schedutil was on every policy).
gov_all interactive 2>/dev/null || HS_DEFAULT=
rec "\"kind\":\"board\",\"policies\":[$pols],\"hz\":${hz:-null},\
\"sched_energy_aware\":$(cat /proc/sys/kernel/sched_energy_aware 2>/dev/null || echo null),\
\"hispeed_default\":${HS_DEFAULT:-null},\"hispeed_max\":$HS_MAX,\
\"reps\":$REPS,\"tap\":\"$TAP\",\"frame\":\"$FRAME\",\"idle\":\"$IDLE\""
for g in $GOVS; do
	gov_all "$g" || { echo "governor $g not available" >&2; exit 1; }
done

# --- the cells -----------------------------------------------------------
echo 4096 > $TRACING/buffer_size_kb
echo > $TRACING/set_event
for e in power/cpu_frequency power/cpu_idle timer/timer_expire_entry \
	workqueue/workqueue_execute_start sched/sched_kthread_work_execute_start; do
	[ -d $TRACING/events/$e ] && trace_event $e
done
trace_wakeups wl

eas_msgs() {
	dmesg | grep -c "Disabling EAS"
}
prev=none
gov_all performance

# cell GOV WORKLOAD REP: one run, one record.
cell() {
	_m0=$(eas_msgs)
	gov_all "$1" || { echo "cannot select $1" >&2; return 1; }
	_eas=$(($(eas_msgs) - _m0))
	_prev=$prev
	prev=$1
	wait_all_min $((SETTLE * 10))
	case $2 in
	tap) args="tap -f -s $TAP" ;;
	frame) args="frame -s $FRAME" ;;
	idle) args="idle $IDLE" ;;
	esac
	# The speed of each CPU when tracing starts.
	f0=
	for c in $(seq 0 $((NCPUS - 1))); do
		f0="$f0 $c=$(cat /sys/devices/system/cpu/cpu$c/cpufreq/scaling_cur_freq)"
	done
	echo > $TRACING/trace
	echo 1 > $TRACING/tracing_on
	echo "cell_begin" > $TRACING/trace_marker
	# shellcheck disable=SC2086
	out=$(wl $args) || { echo "wl $2 failed" >&2; return 1; }
	echo "cell_end" > $TRACING/trace_marker
	echo 0 > $TRACING/tracing_on
	awk -v gov="$1" -v wl="$2" -v rep="$3" -v f0="$f0" -v fn_re="$GOV_FN" \
		-v summary="$out" -v eas="$_eas" -v prev="$_prev" '
	BEGIN { n = split(f0, a, " ")
		for (i = 1; i <= n; i++) { split(a[i], kv, "="); f[kv[1]] = kv[2] } }
	# Busy time of CPU c at its speed, up to t.
	function acc(c, t) {
		if (on && !idle[c] && t > last[c]) busy[c, f[c]] += t - last[c]
		last[c] = t
	}
	'"$TRACE_LINE_AWK"'
	trace_line() {
		if (ev == "tracing_mark_write") {
			split(rest, m, " ")
			if (m[1] == "cell_begin") {
				t0 = t; on = 1
				# The board was settled: every CPU idle but
				# the one writing the marker.
				for (c in f) { idle[c] = (c != cpu); last[c] = t }
				next
			}
			if (m[1] == "cell_end") {
				for (c in f) acc(c, t)
				t1 = t; on = 0; next
			}
			mc = -1; ms = -1
			for (i = 2; i in m; i++) {
				split(m[i], kv, "=")
				if (kv[1] == "cpu") mc = kv[2]
				if (kv[1] == "seq") ms = kv[2]
			}
			if (m[1] == "idle_start") idling = 1
			if (m[1] == "idle_end") idling = 0
			# A burst or frame starts at wl'"'"'s wakeup for it.
			if ((m[1] == "tap_start" || m[1] == "frame_start" ||
			     m[1] == "idle_end") && lastwoke)
				t = lastwoke
			lastwoke = 0
			marks = marks (marks ? "," : "") "[" t ",\"" m[1] "\"," mc "," ms "]"
		} else if (ev == "cpu_frequency") {
			split(rest, a, /[ =]/)	# state N cpu_id C
			acc(a[4], t); f[a[4]] = a[2]
		} else if (ev == "cpu_idle") {
			split(rest, a, /[ =]/)	# state N cpu_id C
			c = a[4]
			acc(c, t)
			idle[c] = (a[2] != 4294967295)
		} else if (ev == "sched_wakeup") {
			lastwoke = t
		} else if (idling) {
			fn = "?"
			if (match(rest, /function[= ][^ ]+/))
				fn = substr(rest, RSTART + 9, RLENGTH - 9)
			if (fn == "interactive_timer") deferred++
			else if (fn ~ fn_re) { wake++; wfn[fn "@" cpu]++ }
		}
	}
	END {
		b = ""
		for (c in f) {
			s = ""
			for (ck in busy) {
				split(ck, x, SUBSEP)
				if (x[1] == c) s = s (s ? "," : "") sprintf("\"%d\":%.6f", x[2], busy[ck])
			}
			b = b (b ? "," : "") "\"" c "\":{" s "}"
		}
		w = ""
		for (k in wfn) w = w (w ? "," : "") "\"" k "\":" wfn[k]
		printf "BENCHREC {\"part\":\"clusters\",\"kind\":\"cell\",\"gov\":\"%s\",\"workload\":\"%s\",\"rep\":%d,\"wl\":\"%s\",\"t0\":%s,\"t1\":%s,\"busy\":{%s},\"marks\":[%s],\"wake\":%d,\"wake_fn\":{%s},\"deferred\":%d,\"eas_off\":%d,\"prev\":\"%s\"}\n",
			gov, wl, rep, summary, t0 ? t0 : "null", t1 ? t1 : "null",
			b, marks, wake, w, deferred, eas, prev
	}' $TRACING/trace
}

rounds "$REPS" "clusters: "
echo 0 > $TRACING/tracing_on
echo > $TRACING/set_event
echo "${old_buf%% *}" > $TRACING/buffer_size_kb
[ -d $CPUFREQ/interactive ] && wr $CPUFREQ/interactive/sched_hint 1
set -- $old_govs
for p in $POLICIES; do
	wr $p/scaling_governor "$1"
	shift
done
[ "$fail" = 0 ]
