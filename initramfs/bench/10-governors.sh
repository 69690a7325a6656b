#!/bin/sh
# Bench part: the cpufreq governors on the same workloads (wl tap, frame,
# frame_scaled, idle), recorded with ftrace.  frame_scaled is frame with
# wl -s: the frame's work takes longer at a lower speed in the guest too
# (closed loop), where frame leaves that to the host's model.  The numbers
# are computed on the host (ci/bench.py); this part only records.  Records
# (BENCHREC lines, see /bench.sh), all with "part":"governors":
#
#   "kind":"board"  the policy: OPPs (kHz), the energy model's table from
#                   debugfs, HZ, interactive's tunables (its hispeed_freq
#                   is the "hispeed" every governor is measured against),
#                   the frame's work (us at the top speed)
#   "kind":"gov"    one per governor: its tunables as read from sysfs
#   "kind":"cell"   one run of one workload under one governor:
#     gov, workload, rep, wl (the workload's own summary line),
#     f0                       the speed (kHz) just before tracing started
#     freq   [[t, kHz], ..]    power:cpu_frequency of the policy's first CPU
#                              (the speed has landed)
#     req    [[t, kHz], ..]    clk:clk_set_rate of the CPU clock (the
#                              driver asked for the speed)
#     marks  [[t, name, cpu, seq], ..]  the workload's trace_marker lines;
#                              a tap or frame starts at the workload's
#                              wakeup (sched_wakeup) before its marker, when
#                              it slept since the previous one: it loads
#                              its CPU from there, and a governor may
#                              change the speed before the marker is written
#     wake   [[t, cpu, function], ..]   governor callbacks that ran:
#                              timer_expire_entry, workqueue_execute_start
#                              and sched_kthread_work_execute_start whose
#                              function is a governor's (see GOV_FN)
#     other  {function: count} the other timer/work callbacks
#     eval   [[t, cpu, load, new kHz, decision], ..]  interactive's
#                              decisions (cpufreq_interactive_eval), why a
#                              ramp came when it did
#     allidle {kHz: seconds}   how long every CPU of the policy was idle
#                              (power:cpu_idle) at each speed: the speed a
#                              governor holds while the board sleeps.  At
#                              the start every CPU but the one writing
#                              the cell_begin marker counts as idle (the
#                              board was settled)
#     t0, t1                   when tracing started and stopped
#   Times are ftrace timestamps in seconds (guest time).
#
# Environment: BENCH_REPS (5) runs of each cell; BENCH_WORKLOADS (tap
# frame frame_scaled idle); BENCH_GOVS (the six
# governors, and "interactive-2012": interactive with sched_hint 0, the
# 2012 rule, where "interactive" has sched_hint 1); BENCH_TAP, BENCH_FRAME, BENCH_IDLE: wl options of each
# workload (defaults: the benchmark's definition); BENCH_SETTLE: at most
# this many seconds (1) of waiting for the minimum speed before a cell.
. /lib/board.sh

REPS=${BENCH_REPS:-5}
GOVS=${BENCH_GOVS:-interactive interactive-2012 ondemand schedutil conservative performance powersave}
WORKLOADS=${BENCH_WORKLOADS:-tap frame frame_scaled idle}
TAP=${BENCH_TAP:--n 10 -i 1500 -b 300}
FRAME=${BENCH_FRAME:--t 5000 -c 1}
IDLE=${BENCH_IDLE:--t 10000 -l 1000}
SETTLE=${BENCH_SETTLE:-1}
WORK_US=5000
# Callbacks of the governors: interactive's timer, up (kthread) and down
# (workqueue) work; ondemand/conservative's dbs_work_handler (queued by
# their irq_work); schedutil's sugov_work (kthread, queued by its irq_work).
GOV_FN='^(interactive_timer|interactive_slack_timer|interactive_up_work|interactive_down_work|interactive_hint_work|dbs_work_handler|sugov_work)$'

case "$REPS" in ''|*[!0-9]*|0) echo "bad BENCH_REPS '$REPS'" >&2; exit 1 ;; esac
[ -w $TRACING/trace_marker ] || { echo "no ftrace" >&2; exit 1; }

rec() {
	echo "BENCHREC {\"part\":\"governors\",$1}"
}

# json_list "a b c" -> [a,b,c]
json_list() {
	echo "[$(echo $1 | tr ' ' ',')]"
}

# json_files DIR: {"file":"value",..} of the readable files of DIR.
json_files() {
	s=
	for f in "$1"/*; do
		[ -f "$f" ] && [ -r "$f" ] || continue
		v=$(cat "$f" 2>/dev/null | tr -d '"\\' | tr '\n' ' ')
		v=${v% }
		s="$s${s:+,}\"$(basename "$f")\":\"$v\""
	done
	echo "{$s}"
}

old_gov=$(cat $POLICY/scaling_governor)
old_buf=$(cat $TRACING/buffer_size_kb)
first_cpu=$(cut -d' ' -f1 $POLICY/related_cpus)

# --- the board ---------------------------------------------------------
set_governor interactive || { echo "cannot select interactive" >&2; exit 1; }
em=
for ps in /sys/kernel/debug/energy_model/cpu$first_cpu/ps:*; do
	[ -d "$ps" ] || continue
	em="$em${em:+,}{\"khz\":$(cat "$ps/frequency"),\"power_uw\":$(cat "$ps/power")}"
done
hz=$(zcat /proc/config.gz 2>/dev/null | sed -n 's/^CONFIG_HZ=//p')
rec "\"kind\":\"board\",\"freqs_khz\":$(json_list "$(cat $POLICY/scaling_available_frequencies)"),\
\"min_khz\":$(cat $POLICY/cpuinfo_min_freq),\"max_khz\":$(cat $POLICY/cpuinfo_max_freq),\
\"policy_cpus\":$(json_list "$(cat $POLICY/related_cpus)"),\"hz\":${hz:-null},\
\"transition_latency_ns\":$(cat $POLICY/cpuinfo_transition_latency),\
\"interactive\":$(json_files $CPUFREQ/interactive),\"em\":[$em],\
\"work_us\":$WORK_US,\"reps\":$REPS,\
\"tap\":\"$TAP\",\"frame\":\"$FRAME\",\"idle\":\"$IDLE\""

# Selecting a governor also loads its module (the module variant).
for g in $GOVS; do
	use_gov "$g" || { echo "governor $g not available" >&2; exit 1; }
	tun=$CPUFREQ/${g%-2012}
	[ -d "$tun" ] || tun=$POLICY/${g%-2012}
	rec "\"kind\":\"gov\",\"gov\":\"$g\",\"tunables\":$(json_files "$tun")"
done

# --- the cells -----------------------------------------------------------
echo 4096 > $TRACING/buffer_size_kb
echo > $TRACING/set_event
for e in power/cpu_frequency power/cpu_idle clk/clk_set_rate timer/timer_expire_entry \
	workqueue/workqueue_execute_start sched/sched_kthread_work_execute_start \
	cpufreq_interactive/cpufreq_interactive_eval; do
	[ -d $TRACING/events/$e ] && trace_event $e
done
trace_wakeups wl

# cell GOV WORKLOAD REP: one run, one record.
cell() {
	use_gov "$1" || { echo "cannot select $1" >&2; return 1; }
	# Let the previous cell's speed settle under this governor (tap starts
	# with 1.5 s of idle, idle with a 1 s lead-in: no more waiting here).
	wait_min $((SETTLE * 10))
	case $2 in
	tap) args=$TAP ;;
	frame) args="$FRAME -W $WORK_US" ;;
	frame_scaled) args="$FRAME -W $WORK_US -s" ;;
	idle) args=$IDLE ;;
	esac
	echo > $TRACING/trace
	f0=$(cat $POLICY/scaling_cur_freq)
	echo 1 > $TRACING/tracing_on
	echo "cell_begin" > $TRACING/trace_marker
	# shellcheck disable=SC2086
	out=$(wl "${2%_scaled}" $args) || { echo "wl $2 failed" >&2; return 1; }
	echo "cell_end" > $TRACING/trace_marker
	echo 0 > $TRACING/tracing_on
	awk -v gov="$1" -v wl="$2" -v rep="$3" -v cpu0="$first_cpu" -v f0="$f0" \
		-v fn_re="$GOV_FN" -v summary="$out" -v cpus="$(cat $POLICY/related_cpus)" '
	BEGIN { ncpu = split(cpus, pc, " "); for (i = 1; i <= ncpu; i++) inpol[pc[i]] = 1
		cur = f0 }
	# Time every CPU of the policy was idle, at the speed then.
	function held(t) {
		if (t0 && nidle == ncpu && t > last) hold[cur] += t - last
		last = t
	}
	'"$TRACE_LINE_AWK"'
	trace_line() {
		if (ev == "tracing_mark_write") {
			split(rest, m, " ")
			if (m[1] == "cell_begin") {
				t0 = t; tb = t; last = t; nidle = 0
				for (c in inpol) {
					idle[c] = (c != cpu)
					nidle += idle[c]
				}
				next
			}
			if (m[1] == "cell_end") { held(t); t1 = t; t0 = 0; next }
			mc = -1; ms = -1
			for (i = 2; i in m; i++) {
				split(m[i], kv, "=")
				if (kv[1] == "cpu") mc = kv[2]
				if (kv[1] == "seq") ms = kv[2]
			}
			# A burst, a frame, or the end of idle starts when wl
			# woke for it.
			# (wl idle marks no CPU: its latest wakeup on any.)
			if ((m[1] == "tap_start" || m[1] == "frame_start" ||
			     m[1] == "idle_end") && (mc in woke))
				t = woke[mc]
			else if (m[1] == "idle_end" && mc == -1 && lastwoke)
				t = lastwoke
			for (c in woke) delete woke[c]
			lastwoke = 0
			marks = marks (marks ? "," : "") "[" t ",\"" m[1] "\"," mc "," ms "]"
		} else if (ev == "cpu_frequency") {
			split(rest, a, /[ =]/)	# state N cpu_id C
			if (a[4] == cpu0) {
				held(t); cur = a[2]
				freq = freq (freq ? "," : "") "[" t "," a[2] "]"
			}
		} else if (ev == "cpu_idle") {
			split(rest, a, /[ =]/)	# state N cpu_id C
			c = a[4]
			if (!(c in inpol) || !t0) next
			held(t)
			s_ = (a[2] != 4294967295)
			nidle += s_ - idle[c]; idle[c] = s_
		} else if (ev == "cpufreq_interactive_eval") {
			# cpu=C load=L cur=F target=F new=F decision=D
			n = split(rest, a, /[ =]/)
			for (i = 1; i < n; i += 2) kv[a[i]] = a[i + 1]
			ev_ = "[" t "," kv["cpu"] "," kv["load"] "," kv["new"] ",\"" kv["decision"] "\"]"
			evals = evals (evals ? "," : "") ev_
		} else if (ev == "sched_wakeup") {
			# comm=wl pid=P prio=N target_cpu=C
			if (match(rest, /target_cpu=[0-9]+/)) {
				woke[substr(rest, RSTART + 11, RLENGTH - 11) + 0] = t
				lastwoke = t
			}
		} else if (ev == "clk_set_rate") {
			split(rest, a, " ")
			req = req (req ? "," : "") "[" t "," int(a[2] / 1000) ",\"" a[1] "\"]"
		} else {
			# timer_expire_entry: ... function=F now=..
			# *_execute_start: work struct P: function F
			f = "?"
			if (match(rest, /function[= ][^ ]+/))
				f = substr(rest, RSTART + 9, RLENGTH - 9)
			if (f ~ fn_re)
				wake = wake (wake ? "," : "") "[" t "," cpu ",\"" f "\"]"
			else
				other[f]++
		}
	}
	END {
		o = ""
		for (f in other) o = o (o ? "," : "") "\"" f "\":" other[f]
		hs_ = ""
		for (f in hold) hs_ = hs_ (hs_ ? "," : "") sprintf("\"%d\":%.6f", f, hold[f])
		printf "BENCHREC {\"part\":\"governors\",\"kind\":\"cell\",\"gov\":\"%s\",\"workload\":\"%s\",\"rep\":%d,\"wl\":\"%s\",\"t0\":%s,\"t1\":%s,\"f0\":%d,\"freq\":[%s],\"req\":[%s],\"marks\":[%s],\"wake\":[%s],\"other\":{%s},\"eval\":[%s],\"allidle\":{%s}}\n",
			gov, wl, rep, summary, tb ? tb : "null", t1 ? t1 : "null",
			f0, freq, req, marks, wake, o, evals, hs_
	}' $TRACING/trace
}

rounds "$REPS" ""
echo 0 > $TRACING/tracing_on
echo > $TRACING/set_event
echo "${old_buf%% *}" > $TRACING/buffer_size_kb
[ -d $CPUFREQ/interactive ] && wr $CPUFREQ/interactive/sched_hint 1
set_governor "$old_gov"
[ "$fail" = 0 ]
