# Helpers shared by the in-guest tests and the demo (busybox sh).

CPUFREQ=/sys/devices/system/cpu/cpufreq
POLICY=$CPUFREQ/policy0
TRACING=/sys/kernel/tracing
NCPUS=$(grep -c '^processor' /proc/cpuinfo)
# One tick in us, from the running kernel's CONFIG_HZ.
TICK_US=$((1000000 / $(zcat /proc/config.gz | sed -n "s/^CONFIG_HZ=//p")))

# The interactive governor's tunables, from their one table
# (lib/tunables.tab): tunables prints the names; tunable_default NAME and
# tunable_rule NAME its default and the rule a write must satisfy, with
# "max", "min" and "tick" made this board's values: in a default, the
# first policy's range (it makes the tunables); in a rule, the range of
# all the policies together (a speed within any policy's range is taken,
# for global tunables serve them all).
TUNABLES=/lib/tunables.tab
tunables() {
	awk '!/^#/ && NF == 3 { print $1 }' $TUNABLES
}
tunable_field() {
	_tf=$POLICY
	[ "$2" = 3 ] && _tf="$CPUFREQ/policy*"
	awk -v n="$1" -v c="$2" -v tick="$TICK_US" \
		-v max="$(cat $_tf/cpuinfo_max_freq | sort -n | tail -n 1)" \
		-v min="$(cat $_tf/cpuinfo_min_freq | sort -n | head -n 1)" '
		!/^#/ && NF == 3 && $1 == n {
			v = $c; gsub(/max/, max, v); gsub(/min/, min, v)
			gsub(/tick/, tick, v); print v; found = 1
		}
		END { exit !found }' $TUNABLES
}
tunable_default() { tunable_field "$1" 2; }
tunable_rule() { tunable_field "$1" 3; }

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

# cmdline NAME [DEFAULT]: the value of NAME=VALUE on the kernel command
# line (the last one given), else DEFAULT.
cmdline() {
	_v=$2
	for _a in $(cat /proc/cmdline); do
		case "$_a" in "$1"=*) _v=${_a#*=} ;; esac
	done
	echo "$_v"
}

# fresh_interactive: the interactive governor with every tunable at its
# default (its global tunables go with the governor: a switch away and
# back makes them anew), whatever earlier tests left.
fresh_interactive() {
	set_governor performance
	set_governor interactive
}

# tunables_test_begin N: how a test of the interactive governor's tunables
# (23-tunables-*) starts: the KTAP plan of N cases, the governor in use
# kept (tunables_test_end puts it back and ends the KTAP), interactive
# selected with fresh tunables; IA, fmin, fmax, hispeed and rate set.
tunables_test_begin() {
	IA=$CPUFREQ/interactive
	ktap_plan "$1"
	_tt_gov=$(cat $POLICY/scaling_governor)
	fresh_interactive
	fmin=$(cat $POLICY/scaling_min_freq)
	fmax=$(cat $POLICY/scaling_max_freq)
	hispeed=$(cat $IA/hispeed_freq)
	rate=$(cat $IA/timer_rate)
}
tunables_test_end() {
	trace_reset 1024
	set_governor "$_tt_gov"
	ktap_done
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
	echo 0 > $TRACING/events/timer/hrtimer_expire_entry/filter
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

# nap SECS: sleep SECS (fractions allowed) in the shell itself, a read
# with a timeout on a FIFO nobody writes.  sleep(1) is a new process: at
# its wakeup the scheduler's estimate of it is still its fork's half a
# CPU, which interactive's sched_hint serves (400-800 MHz on this board),
# so a poll that sleeps with it keeps raising the speed it waits to see
# fall (a test waiting 1 s for the minimum after boost 0 saw 400 MHz).
nap() {
	[ -p /tmp/nap.fifo ] || mkfifo /tmp/nap.fifo 2>/dev/null
	read -r -t "$1" _ <> /tmp/nap.fifo
	return 0
}

# Wait up to $2 deciseconds for the file $1 to read $3.
# The file is read by the shell itself (read, no $(cat ...)) and the
# pause is nap's: a forked reader or sleep is a new task on a CPU leaving
# idle, which the interactive governor's sched_hint raises the speed for,
# so waiting for the minimum would see its own raise.
wait_for() {
	n=0
	while :; do
		_wv=
		read -r _wv < "$1" 2>/dev/null
		[ "$_wv" = "$3" ] && return 0
		n=$((n + 1))
		[ $n -gt "$2" ] && return 1
		nap 0.1
	done
}

# led_phase NAME [CPU]: tell the host which LED phase starts now.  Written
# straight to the console, so the host (boot/qemu.py) sees it at once.
led_phase() {
	echo "#LED phase=$1${2:+ cpu=$2}" > /dev/console
}

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

# led_busy_idle CPU N: sample CPU's LED N times while a task keeps CPU
# busy, then N times while it idles, watching from another CPU (so the
# watcher does not light the LED), with led_phase markers for the host's
# sampler.  Sets LED_SAMPLES to "BUSY_LIT N IDLE_LIT N".  Call it in the
# test's shell, not in $(...): it pins that shell ($$) to the other CPU.
led_busy_idle() {
	_self=$(taskset -p $$ | sed 's/.*: //')
	taskset -p -c $((($1 + 1) % NCPUS)) $$ >/dev/null
	led_phase busy "$1"
	# Busy until killed: the phase lasts as long as the sampling does.
	burn -c "$1" -t 600000 -n led &
	_pid=$!
	usleep 200000
	_busy=$(sample_led "$1" "$2")
	kill -0 $_pid 2>/dev/null || echo "# cpu$1: burn ended before the sampling"
	kill $_pid
	wait $_pid 2>/dev/null
	led_phase idle "$1"
	usleep 200000
	_idle=$(sample_led "$1" "$2")
	led_phase end
	taskset -p "$_self" $$ >/dev/null
	LED_SAMPLES="$_busy $_idle"
}

# led_lit LIT N / led_dark LIT N: the LED was lit in at least 80% of N
# (>= 10) samples / in at most 20% of them.
led_lit() { [ "$2" -ge 10 ] && [ $(($1 * 10)) -ge $(($2 * 8)) ]; }
led_dark() { [ "$2" -ge 10 ] && [ $(($1 * 10)) -le $(($2 * 2)) ]; }

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

# TRACE_LINE_AWK: an awk function for programs that read the raw trace
# (awk '"$TRACE_LINE_AWK"' ...).  trace_line() splits $0, an ftrace line
# "  task-pid  [CPU] flags  SECONDS: event: details", into the globals
# cpu, t (seconds), ev and rest (the details); 0 when $0 is none.
TRACE_LINE_AWK='
function trace_line(   head, h, k) {
	if (!match($0, /\[[0-9]+\][^:]* [0-9]+\.[0-9]+: [a-z_]+: /)) return 0
	head = substr($0, RSTART, RLENGTH)
	rest = substr($0, RSTART + RLENGTH)
	k = split(head, h, " ")
	cpu = substr(h[1], 2, length(h[1]) - 2) + 0
	t = h[k - 1]; sub(/:$/, "", t)
	ev = h[k]; sub(/:$/, "", ev)
	return 1
}'

# trace_ticks: also trace each CPU's scheduler tick (hrtimer_expire_entry
# of tick_sched_timer; nothing when /proc/kallsyms hides its address).
# tick_lines: of the trace, "CPU SECONDS" a tick.  A busy CPU ticks every
# TICK_US; when QEMU leaves a virtual CPU unscheduled (four of them on
# the host's cores), guest time goes on with no tick and no instruction
# on it, and nothing the guest does can meet a bound in that stretch.
trace_ticks() {
	_a=$(awk '$3 == "tick_sched_timer" { print "0x" $1; exit }' /proc/kallsyms)
	[ -n "$_a" ] && [ "$_a" != 0x00000000 ] || return 1
	echo "function == $_a" > $TRACING/events/timer/hrtimer_expire_entry/filter &&
		trace_event timer/hrtimer_expire_entry
}
tick_lines() {
	sed -n 's/.*\[0*\([0-9][0-9]*\)\].* \([0-9][0-9]*\.[0-9]*\): hrtimer_expire_entry:.*/\1 \2/p' $TRACING/trace
}
# TICK_GAP_AWK: an awk function for programs that read tick_lines into
# tk[CPU, I] (nt[CPU] of them, in order): tick_lost(CPU, A, B), the
# longest stretch from A to B (seconds) with no tick of CPU, less the
# tick it may take anyway, in us (0 when it ticked on time or when no
# tick of CPU was read at all).
TICK_GAP_AWK='
function tick_lost(c, a, b,   i, p, m, t) {
	if (!nt[c]) return 0
	ip[c] += 0
	while (ip[c] < nt[c] && tk[c, ip[c]] <= a) ip[c]++
	p = a; m = 0
	for (i = ip[c]; i < nt[c] && (t = tk[c, i]) <= b; i++) { if (t - p > m) m = t - p; p = t }
	if (b - p > m) m = b - p
	m = int(m * 1e6 + 0.5) - tick
	return m > tick / 2 ? m : 0
}'

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
	read -r _wm < $POLICY/scaling_min_freq
	wait_for $POLICY/scaling_cur_freq "$1" "$_wm"
}

# settle_min DS: after a disturbance (switching trace events patches kernel
# text with stop_machine on every CPU, which a governor sees as load), give
# the governor time to react to it, then wait up to DS deciseconds for the
# minimum speed.
settle_min() {
	nap 0.3
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

# idle_gov_wakeups SECONDS FMIN: trace an idle board at the minimum speed
# FMIN for SECONDS and print "EVALS IN_IDLE WOKE RODE TIMERS": the
# interactive governor's evaluations, those that ran on a CPU in hardware
# idle, of these the ones from its slack timer at the minimum (WOKE) and
# from its deferrable timer (RODE), and all timer expiries.  A CPU leaves
# hardware idle for a timer only if that timer may wake it: the
# governor's sampling timer is deferrable (it runs when the CPU is woken
# for something else, in that interrupt), its slack timer is not, and
# must not be armed on an idle CPU at the minimum.  So an evaluation that
# ran on a CPU in hardware idle (hw_idle_marked) from the slack timer at
# the minimum woke that CPU for the governor: WOKE must be 0.  The trace
# is left in the buffer (hw_idle_marked shows it).
idle_gov_wakeups() {
	trace_reset 2048
	trace_event timer/timer_expire_entry
	trace_event cpufreq_interactive/cpufreq_interactive_eval
	trace_event power/cpu_idle
	# Switching events patches kernel text on every CPU (load): settle.
	settle_min 50
	echo 1 > $TRACING/tracing_on
	sleep "$1"
	echo 0 > $TRACING/tracing_on
	hw_idle_marked | awk -v fmin="$2" '
	match($0, /\[[0-9]+\]/) { c = substr($0, RSTART + 1, RLENGTH - 2) + 0 }
	/timer_expire_entry:/ {
		all++
		fn[c] = ""
		if (match($0, /function=[^ ]+/)) fn[c] = substr($0, RSTART + 9, RLENGTH - 9)
	}
	/cpufreq_interactive_eval:/ {
		n++
		if ($1 != "idle") next
		idle++
		for (i = 3; i <= NF; i++) if ($i ~ /^target=/) t = substr($i, 8) + 0
		if (t > fmin) next
		if (fn[c] == "interactive_slack_timer") woke++
		else rode++
	}
	END { print n + 0, idle + 0, woke + 0, rode + 0, all + 0 }'
}

# suspend_rtc SECONDS [STATE]: suspend the board (STATE, default "mem":
# suspend-to-idle here, see /sys/power/mem_sleep) and have the PL031 RTC's
# alarm wake it SECONDS later.  The wakeup count is written back first, so
# an alarm (or any wakeup event) that comes before the board is down
# aborts the suspend instead of being lost, which would leave the board
# asleep for good.  Returns the write's status; SUSPEND_ERR is its error
# message ("" when it succeeded).
RTC=/sys/class/rtc/rtc0
suspend_rtc() {
	SUSPEND_ERR="wakeup events in progress"
	_wc=$(cat /sys/power/wakeup_count) &&
		wr /sys/power/wakeup_count "$_wc" || return 1
	wr $RTC/wakealarm 0
	SUSPEND_ERR="wakealarm +$1 refused"
	wr $RTC/wakealarm "+$1" || return 1
	SUSPEND_ERR=$(echo "${2:-mem}" 2>&1 > /sys/power/state)
	_rc=$?
	wr $RTC/wakealarm 0
	return $_rc
}
