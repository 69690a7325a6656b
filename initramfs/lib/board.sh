# Helpers shared by the in-guest tests and the demo (busybox sh).

CPUFREQ=/sys/devices/system/cpu/cpufreq
POLICY=$CPUFREQ/policy0
TRACING=/sys/kernel/tracing
NCPUS=$(grep -c '^processor' /proc/cpuinfo)

# led_of_cpu N: sysfs directory of the LED whose trigger is cpuN.
led_of_cpu() {
	for l in /sys/class/leds/*; do
		grep -q "\[cpu$1\]" "$l/trigger" 2>/dev/null && { echo "$l"; return 0; }
	done
	return 1
}

# wr FILE VALUE: write VALUE to FILE; exit status tells if the write was
# accepted (busybox echo reports the write error).
wr() {
	echo "$2" > "$1" 2>/dev/null
}

set_governor() {
	wr $POLICY/scaling_governor "$1"
}

# use_gov NAME: select the governor NAME, where "interactive-2012" is
# interactive with sched_hint 0 (the 2012 rule) and "interactive" has it 1.
use_gov() {
	case $1 in
	interactive | interactive-2012)
		set_governor interactive || return 1
		_h=1
		[ "$1" = interactive ] || _h=0
		wr $CPUFREQ/interactive/sched_hint $_h ;;
	*) set_governor "$1" ;;
	esac
}

# rounds REPS PREFIX: run "cell GOV WORKLOAD REP" for every governor of
# $GOVS and workload of $WORKLOADS, REPS times, interleaved: every governor
# once a round, the order rotating each round, so that a slow drift of
# the emulator's speed is shared by all.  Progress (PREFIX first) on
# stderr; the failed cells are counted in $fail.
rounds() {
	_r=0
	fail=0
	while [ "$_r" -lt "$1" ]; do
		for _g in $(echo $GOVS | awk -v r="$_r" '{ for (i = 0; i < NF; i++) printf "%s ", $((i + r) % NF + 1) }'); do
			for _w in $WORKLOADS; do
				echo "${2}round $((_r + 1))/$1: $_g $_w" >&2
				cell "$_g" "$_w" "$_r" || fail=$((fail + 1))
			done
		done
		_r=$((_r + 1))
	done
}

cur_freq() {
	cat $POLICY/scaling_cur_freq
}

# Reset ftrace: empty buffer, no events, given buffer size (KiB per CPU).
trace_reset() {
	echo 0 > $TRACING/tracing_on
	echo > $TRACING/set_event
	echo 0 > $TRACING/events/sched/sched_wakeup/filter
	echo > $TRACING/trace
	echo "${1:-1024}" > $TRACING/buffer_size_kb
}

trace_event() {
	echo 1 > "$TRACING/events/$1/enable"
}

online_cpus_except0() {
	i=1
	while [ $i -lt "$NCPUS" ]; do echo $i; i=$((i + 1)); done
}

set_online() {
	wr /sys/devices/system/cpu/cpu$1/online "$2"
}

# Wait up to $2 deciseconds for the file $1 to read $3.
wait_for() {
	n=0
	while [ "$(cat "$1" 2>/dev/null)" != "$3" ]; do
		n=$((n + 1))
		[ $n -gt "$2" ] && return 1
		sleep 0.1
	done
	return 0
}

# led_phase NAME [CPU]: tell the host which LED phase starts now.  Written
# straight to the console, so the host (boot/qemu.py) sees it at once.
led_phase() {
	echo "#LED phase=$1${2:+ cpu=$2}" > /dev/console
}

# uptime_cs: time since boot in centiseconds.
uptime_cs() {
	t=$(cut -d' ' -f1 /proc/uptime)
	echo $((${t%.*} * 100 + 1${t#*.} - 100))
}

# trace_lines: the trace buffer as "SECONDS EVENT: DETAILS" lines.
trace_lines() {
	awk 'match($0, /[0-9]+\.[0-9]+: /) {
		ts = substr($0, RSTART, RLENGTH - 2)
		print ts, substr($0, RSTART + RLENGTH) }' $TRACING/trace
}

# trace_wakeups COMM: also trace the wakeups of the tasks named COMM.
trace_wakeups() {
	echo "comm == \"$1\"" > $TRACING/events/sched/sched_wakeup/filter
	trace_event sched/sched_wakeup
}

# burst_trace NAME: of the trace on stdin (trace_lines format, recorded
# with trace_wakeups burn), the lines from the start of burn's burst NAME
# on: from burn's last wakeup before its NAME_start marker, or from that
# marker.  A task pinned to an idle CPU loads it from its wakeup on, and
# the governor may decide on that load, and its worker change the speed,
# before the task gets back to user space to write its marker.
burst_trace() {
	awk -v m="tracing_mark_write: $1_start" '
		on { print; next }
		/sched_wakeup: comm=burn / { n = 0; w = 1 }
		w { buf[n++] = $0 }
		index($0, m) { if (!w) print; for (i = 0; i < n; i++) print buf[i]; on = 1 }'
}

# burst_start NAME FILE: when burn's burst NAME began in the trace FILE
# (see burst_trace), in seconds.
burst_start() {
	burst_trace "$1" < "$2" | awk '{ print $1; exit }'
}

# hw_idle_marked: the raw trace, each line prefixed with "idle" when its CPU
# was in hardware idle (between power:cpu_idle's entry and exit events on
# that CPU: trace that event), else "awake".  A timer that expires in an
# "idle" line ran in the interrupt that woke its CPU.  Before a CPU's first
# cpu_idle event, a line of the idle task counts as idle.  The idle task
# also runs awake: a tick between the idle loop's exit and the switch to
# the woken task runs the timers there.
hw_idle_marked() {
	awk 'match($0, /\[[0-9]+\]/) {
		c = substr($0, RSTART + 1, RLENGTH - 2) + 0
		if ($0 ~ /cpu_idle: state=4294967295 /) st[c] = "awake"
		else if ($0 ~ /cpu_idle: state=/) st[c] = "idle"
		s = (c in st) ? st[c] : (($1 ~ /^<idle>-0/) ? "idle" : "awake")
		print s, $0 }' $TRACING/trace
}

# wait_min DS: wait up to DS deciseconds for the policy to reach its minimum.
wait_min() {
	wait_for $POLICY/scaling_cur_freq "$1" "$(cat $POLICY/scaling_min_freq)"
}

# settle_min DS: after a disturbance (switching trace events patches kernel
# text with stop_machine on every CPU, which a governor sees as load), give
# the governor time to react to it, then wait up to DS deciseconds for the
# minimum speed.
settle_min() {
	sleep 0.3
	wait_min "$1"
}

# down_bound BURST_US SLACK_US TICK_US: the longest, by the interactive
# governor's rules, from the end of a CPU-bound task of BURST_US at the
# top speed to the minimum speed on an otherwise idle board, in us, with
# the tunables' current min_sample_time and timer_rate.  A window's load
# is its own (nothing from before it counts), so BURST_US does not enter:
# the first window that finds the CPU idle lowers it, to where the tail
# of the burst in that window points, and the next one to the minimum.
# Each step comes at the CPU's next evaluation after the speed was held
# min_sample_time: an idle CPU above the minimum is evaluated timer_rate
# + SLACK_US after its window opened, so a step takes at most timer_rate
# + the larger of SLACK_US and min_sample_time, and a tick: the window's
# timer runs on the first tick after timer_rate.  Plus a tick for each of
# the two speed changes to land.
down_bound() {
	_mst=$(cat $CPUFREQ/interactive/min_sample_time)
	_rate=$(cat $CPUFREQ/interactive/timer_rate)
	_wait=$2
	[ "$_mst" -gt "$_wait" ] && _wait=$_mst
	echo $((2 * (_rate + _wait) + 4 * $3))
}
