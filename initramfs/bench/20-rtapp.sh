#!/bin/sh
# Bench part: the community's workloads, played by Debian's rt-app under
# each governor, recorded here and modelled on the host (ci/bench.py).
# Workloads: rt-app's own examples browser-short, mp3-short and
# video-short, and "ramp" (/usr/share/rt-app/ramp.json): one periodic task
# (16 ms) whose utilization at the top speed climbs from 5 % to 75 % in
# steps of 10 %, as the EAS tests ramp a task.
#
# rt-app's "run" events spin a calibrated number of loops.  The emulated
# CPU runs at one speed whatever the frequency, so a loop takes the same
# time at every speed and a run is just its nominal time: each "run" is
# played as a "runtime" event (busy for that time by the clock), which is
# the same here and needs no calibration (rt-app's own, pinned to CPU0,
# did not end under performance on this board).  The guest plays the
# workload as if at the top speed, and the host stretches each run by the
# speed the traced schedule gave it (see ci/bench.py).
#
# Records (BENCHREC, "part":"rtapp"):
#   "kind":"cell"  gov, workload, rep, ncpu (CPUs of the policy), t0/t1 (trace clock "mono", the
#                  CLOCK_MONOTONIC seconds rt-app logs in), f0, freq
#                  [[t, kHz], ..] (power:cpu_frequency of the policy's
#                  first CPU), busy {kHz: CPU-seconds busy at that speed,
#                  all CPUs of the policy, from power:cpu_idle}, allidle
#                  {kHz: seconds every CPU was idle}, threads
#                  {name: [[start_us, run_us, slack_us, c_period_us,
#                  period_us], ..]}: rt-app's log, a row per loop that
#                  ran (start: CLOCK_MONOTONIC; c_period: the timer's
#                  period, 0 without one; period: the loop's own length)
#
# Environment: BENCH_REPS (3 here) runs of each cell; BENCH_GOVS;
# RTAPP_WORKLOADS; RTAPP_DURATION (4): seconds of each workload.
. /lib/board.sh

REPS=${BENCH_REPS:-3}
[ "$REPS" -gt 3 ] && REPS=3
GOVS=${BENCH_GOVS:-interactive interactive-2012 ondemand schedutil conservative}
WORKLOADS=${RTAPP_WORKLOADS:-browser-short mp3-short video-short ramp}
DURATION=${RTAPP_DURATION:-4}
SHARE=/usr/share/rt-app
RUN=/tmp/rtapp

command -v rt-app > /dev/null || { echo "no rt-app" >&2; exit 1; }
[ -w $TRACING/trace_marker ] || { echo "no ftrace" >&2; exit 1; }
old_gov=$(cat $POLICY/scaling_governor)
old_clock=$(sed 's/.*\[\(.*\)\].*/\1/' $TRACING/trace_clock)
first_cpu=$(cut -d' ' -f1 $POLICY/related_cpus)

# job WORKLOAD: the workload's JSON with runs as runtimes (see above), our
# duration and log folder, a 2 MB log buffer a thread (rt-app 1.0 writes
# no rows with "file"), and no page locking or rt-app tracing.  A bare
# "suspend" (video-short.json; the json-c of Debian 12 refuses it) waits
# on the thread's own name, as the other threads' "resume"s expect.
job() {
	awk '/^\t\t"[^"]+"[ ]*:[ ]*\{/ { t = $0; sub(/^\t\t"/, "", t); sub(/".*/, "", t) }
		/"suspend"[ ]*,[ ]*$/ { sub(/"suspend"[ ]*,/, "\"suspend\" : \"" t "\",") }
		{ print }' "$SHARE/$1.json" |
	sed -e 's/"run"[ ]*:/"runtime" :/g' \
	    -e 's/"calibration"[ ]*:[ ]*"CPU0"/"calibration" : 100/' \
	    -e 's/"global"[ ]*:[ ]*{/"global" : { "log_size" : 2,/' \
	    -e "s/\"duration\"[ ]*:[ ]*[0-9-]*/\"duration\" : $DURATION/" \
	    -e "s|\"logdir\"[ ]*:[ ]*\"[^\"]*\"|\"logdir\" : \"$RUN\"|" \
	    -e "s/\"log_basename\"[ ]*:[ ]*\"[^\"]*\"/\"log_basename\" : \"$1\"/" \
	    -e 's/"lock_pages"[ ]*:[ ]*true/"lock_pages" : false/' \
	    -e 's/"ftrace"[ ]*:[ ]*true/"ftrace" : false/'
}

mkdir -p $RUN
trace_reset 4096
echo mono > $TRACING/trace_clock
trace_event power/cpu_frequency
trace_event power/cpu_idle

# cell GOV WORKLOAD REP: one run, one record.
cell() {
	use_gov "$1" || { echo "cannot select $1" >&2; return 1; }
	wait_min 10
	job "$2" > $RUN/job.json
	rm -f $RUN/"$2"-*.log
	echo > $TRACING/trace
	f0=$(cat $POLICY/scaling_cur_freq)
	echo 1 > $TRACING/tracing_on
	echo "cell_begin" > $TRACING/trace_marker
	rt-app $RUN/job.json > $RUN/out 2>&1
	rc=$?
	echo "cell_end" > $TRACING/trace_marker
	echo 0 > $TRACING/tracing_on
	[ $rc = 0 ] || { echo "rt-app $2 failed ($rc):" >&2; tail -n 5 $RUN/out >&2; return 1; }
	# rt-app's logs: "#idx perf run period start end rel_st slack
	# c_duration c_period wu_lat", a row per loop of each thread.
	threads=
	for log in $RUN/"$2"-*.log; do
		[ -f "$log" ] || continue
		t=${log#$RUN/$2-}
		t=${t%.log}
		rows=$(awk '!/^#/ && NF >= 10 && $3 > 0 {
			printf "%s[%s,%s,%s,%s,%s]", n++ ? "," : "", $5, $3, $8, $10, $4 }' "$log")
		threads="$threads${threads:+,}\"$t\":[$rows]"
	done
	awk -v gov="$1" -v wl="$2" -v rep="$3" -v cpu0="$first_cpu" -v f0="$f0" \
		-v cpus="$(cat $POLICY/related_cpus)" -v threads="$threads" '
	BEGIN { ncpu = split(cpus, pc, " "); for (i = 1; i <= ncpu; i++) inpol[pc[i]] = 1
		cur = f0 }
	# Bring the busy and all-idle time up to t, at the speed until then.
	function upto(t,   c) {
		if (t0 && t > last) {
			for (c in inpol) if (!idle[c]) busy[cur] += t - last
			if (nidle == ncpu) hold[cur] += t - last
		}
		last = t
	}
	'"$TRACE_LINE_AWK"'
	trace_line() {
		if (ev == "tracing_mark_write") {
			if (rest ~ /^cell_begin/) {
				t0 = t; tb = t; last = t; nidle = 0
				for (c in inpol) { idle[c] = (c != cpu); nidle += idle[c] }
			} else if (rest ~ /^cell_end/) { upto(t); t1 = t; t0 = 0 }
		} else if (ev == "cpu_frequency") {
			split(rest, a, /[ =]/)	# state N cpu_id C
			if (a[4] == cpu0) {
				upto(t); cur = a[2]
				freq = freq (freq ? "," : "") "[" t "," a[2] "]"
			}
		} else if (ev == "cpu_idle") {
			split(rest, a, /[ =]/)
			c = a[4]
			if (!(c in inpol) || !t0) next
			upto(t)
			s_ = (a[2] != 4294967295)
			nidle += s_ - idle[c]; idle[c] = s_
		}
	}
	function obj(arr,   f, o) {
		o = ""
		for (f in arr) o = o (o ? "," : "") sprintf("\"%d\":%.6f", f, arr[f])
		return "{" o "}"
	}
	END {
		printf "BENCHREC {\"part\":\"rtapp\",\"kind\":\"cell\",\"gov\":\"%s\",\"workload\":\"%s\",\"rep\":%d,\"ncpu\":%d,\"t0\":%s,\"t1\":%s,\"f0\":%d,\"freq\":[%s],\"busy\":%s,\"allidle\":%s,\"threads\":{%s}}\n",
			gov, wl, rep, ncpu, tb ? tb : "null", t1 ? t1 : "null",
			f0, freq, obj(busy), obj(hold), threads
	}' $TRACING/trace
}

rounds "$REPS" "rtapp "
echo 0 > $TRACING/tracing_on
echo > $TRACING/set_event
echo "$old_clock" > $TRACING/trace_clock
trace_reset 1024
[ -d $CPUFREQ/interactive ] && wr $CPUFREQ/interactive/sched_hint 1
set_governor "$old_gov"
[ "$fail" = 0 ]
