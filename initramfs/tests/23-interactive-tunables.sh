#!/bin/sh
# The tunables later Android kernels added to the interactive governor:
# defaults, validation, and that each one changes the governor's behaviour
# as documented, timed in guest time from ftrace timestamps where the
# behaviour has a time in it.  Then per-policy tunables: the cpufreq-dt
# driver is rebound to ask for a governor per policy
# (modules/cpufreq_dt_per_policy), and the tunables must live in
# policy0/interactive/ with their own values.
. /lib/ktap.sh
. /lib/board.sh

IA=$CPUFREQ/interactive
TICK_US=$((1000000 / $(zcat /proc/config.gz | sed -n "s/^CONFIG_HZ=//p")))
ktap_plan 32

old_gov=$(cat $POLICY/scaling_governor)
set_governor interactive
fmin=$(cat $POLICY/scaling_min_freq)
fmax=$(cat $POLICY/scaling_max_freq)
hispeed=$(cat $IA/hispeed_freq)
rate=$(cat $IA/timer_rate)
mst=$(cat $IA/min_sample_time)

# --- Defaults ------------------------------------------------------------
ktap_eq "target_loads defaults to 90" "$(cat $IA/target_loads)" 90
ktap_eq "above_hispeed_delay defaults to timer_rate's default" \
	"$(cat $IA/above_hispeed_delay)" 20000
ktap_eq "timer_slack defaults to 4 x timer_rate" "$(cat $IA/timer_slack)" 80000
ktap_eq "boost defaults to 0" "$(cat $IA/boost)" 0
ktap_eq "boostpulse_duration defaults to 80000" "$(cat $IA/boostpulse_duration)" 80000
ktap_eq "io_is_busy defaults to 1, as the 2012 governor counted" \
	"$(cat $IA/io_is_busy)" 1
ktap_eq "sched_hint defaults to 1" "$(cat $IA/sched_hint)" 1
write_only() {
	[ "$(ls -l $IA/boostpulse | cut -c1-10)" = "--w-------" ] &&
		! cat $IA/boostpulse > /dev/null 2>&1
}
ktap_check "boostpulse is write-only" write_only

# --- Validation ------------------------------------------------------------
bad=""
# try_bad FILE VALUE: the write must fail and leave FILE as it was.
try_bad() {
	before=$(cat "$IA/$1")
	wr "$IA/$1" "$2" && bad="$bad $1='$2':accepted"
	[ "$(cat "$IA/$1")" = "$before" ] || bad="$bad $1='$2':changed"
}
many="1"
i=1
while [ $i -le 16 ]; do many="$many $i:1"; i=$((i + 1)); done
for v in abc "" 0 101 -1 "85 800000" "85 800000:" "85  800000:90" \
	"85 800000:90 600000:95" "85 800000:90 800000:95" "85 0:90" \
	"85 800000:101" "85,800000:90" 123456789012345678901234567890 "$many"; do
	try_bad target_loads "$v"
done
for v in -1 abc "" "20000 800000" 10000001 "20000 800000:10000001"; do
	try_bad above_hispeed_delay "$v"
done
for v in -2 abc "" 10000001 1.5; do try_bad timer_slack "$v"; done
for v in 2 -1 abc ""; do
	try_bad boost "$v"; try_bad io_is_busy "$v"; try_bad sched_hint "$v"
done
for v in -1 abc "" 10000001; do try_bad boostpulse_duration "$v"; done
for v in abc "" -1; do wr $IA/boostpulse "$v" && bad="$bad boostpulse='$v':accepted"; done
ktap_eq "malformed writes fail and leave every new tunable unchanged" "${bad# }" ""

wr $IA/target_loads "85:800000:90 1000000:95"
ktap_eq "bands are read back as VALUE FREQ:VALUE ..." \
	"$(cat $IA/target_loads)" "85 800000:90 1000000:95"
back=""
for f in target_loads above_hispeed_delay timer_slack boost boostpulse_duration \
	io_is_busy sched_hint; do
	wr $IA/$f "$(cat $IA/$f)" || back="$back $f"
done
ktap_eq "writing back what a read shows is accepted" "${back# }" ""
wr $IA/target_loads 90

# --- boostpulse and boost --------------------------------------------------
# quiet_min: settle at the minimum, then wait (without starting programs,
# which the governor would see as load) until the speed reads the minimum.
quiet_min() {
	settle_min 50
	n=0
	while [ $n -lt 10 ]; do
		sleep 0.3
		read -r f < $POLICY/scaling_cur_freq
		[ "$f" = "$fmin" ] && return 0
		n=$((n + 1))
	done
	return 1
}
# pulse US: from the minimum, write boostpulse with boostpulse_duration US;
# prints "UP DOWN": us from the write to the speed reaching hispeed_freq,
# and to its first drop below it afterwards (-1: did not happen).  A pulse
# that found the speed above the minimum (the trace shows the speed at the
# write) does not count: up to 3 tries.
pulse() {
	tries=1
	while :; do
		pulse_once "$1"
		start=$(awk -v fmin="$fmin" '
			/cpu_frequency:/ { split($3, f, "="); lvl = f[2] }
			/tracing_mark_write: pulse_start/ { if (lvl == "") { split($4, f, "="); lvl = f[2] }
				print lvl + 0; exit }' /tmp/pulse.trace)
		[ "$start" = "$fmin" ] || [ $tries -ge 3 ] && break
		tries=$((tries + 1))
	done
	awk -v hs="$hispeed" '
		/tracing_mark_write: pulse_start/ { s = $1 }
		/cpu_frequency:/ && s { split($3, f, "=")
			if (f[2] >= hs && !up) up = $1
			if (up && f[2] < hs && !dn) dn = $1 }
		END { printf "%d %d\n", up ? (up - s) * 1e6 : -1,
			dn ? (dn - s) * 1e6 : -1 }' /tmp/pulse.trace
}

pulse_once() {
	wr $IA/boostpulse_duration "$1"
	trace_reset 1024
	trace_event power/cpu_frequency
	quiet_min
	echo 1 > $TRACING/tracing_on
	read -r f < $POLICY/scaling_cur_freq
	echo "pulse_start cur=$f" > $TRACING/trace_marker
	echo 1 > $IA/boostpulse || echo "pulse_failed" > $TRACING/trace_marker
	sleep $(($1 / 1000000 + 1))
	echo 0 > $TRACING/tracing_on
	trace_lines > /tmp/pulse.trace
}
# pulse_held US: a pulse of US; prints "UP DOWN" as pulse does.  The pulse
# ends by a delayed work, at most a tick after US, and the change takes up
# to a tick more on this board: a fall later than US + 3 ticks is tried
# again (up to 3 pulses), as QEMU's host can delay a tick; one before US
# is not.
pulse_held() {
	ptry=1
	while :; do
		set -- $(pulse "$1") "$1"
		ktap_diag "boostpulse ($(($3 / 1000)) ms, try $ptry): >= $hispeed kHz after $1 us, below it again after $2 us"
		[ "$1" -ge 0 ] || grep -E 'pulse|cpu_frequency' /tmp/pulse.trace | head -20 | sed 's/^/# /'
		[ "$2" -ge 0 -a "$2" -le $(($3 + 3 * TICK_US)) ] || [ $ptry -ge 3 ] && break
		ptry=$((ptry + 1))
		set -- "$3"
	done
	echo "$1 $2" > /tmp/pulse.res
}
pulse_held 80000
read -r up down < /tmp/pulse.res
ktap_bound "a boostpulse raises the speed to hispeed_freq within one timer period" \
	[ "$up" -ge 0 -a "$up" -le "$rate" ]
ktap_bound "the speed falls back after boostpulse_duration, not before" \
	[ "$down" -ge 80000 -a "$down" -le $((80000 + 3 * TICK_US)) ]
pulse_held 300000
read -r up down < /tmp/pulse.res
ktap_bound "boostpulse_duration 300000 holds the speed 300 ms" \
	[ "$down" -ge 300000 -a "$down" -le $((300000 + 3 * TICK_US)) ]
wr $IA/boostpulse_duration 80000

settle_min 50
wr $IA/boost 1
ktap_bound "boost 1 raises the speed to hispeed_freq at once" \
	wait_for $POLICY/scaling_cur_freq 2 "$hispeed"
sleep 1
ktap_check "boost 1 holds hispeed_freq on an idle board" [ "$(cur_freq)" -ge "$hispeed" ]
wr $IA/boost 0
ktap_bound "boost 0 lets the speed fall to the minimum" wait_min 10

# --- target_loads ----------------------------------------------------------
# band_choice: the mean speed (kHz) cpu1 asks for (its own decisions,
# traced, from 1 s in to 3 s) while it runs a frame of 10 ms of top-speed
# work every 20 ms, scaled to its speed (wl frame -s): the same work at any
# speed, 50% of the top speed, 83% of 600 MHz.  The CPU's own requests, not
# the policy's speed, which the other CPUs (the shell) may raise.
band_choice() {
	trace_reset 1024
	trace_event cpufreq_interactive/cpufreq_interactive_eval
	settle_min 50
	echo 1 > $TRACING/tracing_on
	wl frame -s -t 3000 -p 20000 -W 10000 -c 1 > /dev/null
	echo 0 > $TRACING/tracing_on
	trace_lines | awk '
		/tracing_mark_write: frame_start/ && !t0 { t0 = $1 }
		/cpufreq_interactive_eval:/ && $3 == "cpu=1" && t0 && $1 >= t0 + 1 {
			split($7, f, "="); sum += f[2]; n++ }
		END { printf "%d %d\n", n ? sum / n : 0, n }'
}
set -- $(band_choice)
m90=$1 n90=$2
wr $IA/target_loads "90 600000:30"
set -- $(band_choice)
mband=$1 nband=$2
wr $IA/target_loads 90
trace_reset 1024
ktap_diag "cpu1 at 50% of the top speed: asks for $m90 kHz on average with target_loads 90 ($n90 decisions), $mband kHz with 90 600000:30 ($nband)"
# At 90% the work fits 600 MHz (83% busy); from 600 MHz up the target is
# 30%, which only the top speed (50%) comes near: once it is at 600 MHz or
# above, the CPU asks for the top speed.
ktap_bound "target_loads bands change the chosen speed for the same load" \
	[ "$n90" -ge 20 -a "$nband" -ge 20 -a "$m90" -le 800000 -a \
	  "$mband" -ge $((m90 + 200000)) ]

# --- above_hispeed_delay ---------------------------------------------------
# held: with hispeed_freq 600 MHz, a CPU-bound task from the minimum; us
# from the decision to raise it to 600 MHz to the decision to go above it
# (-1: never, within 1.2 s).
held() {
	trace_reset 1024
	trace_event cpufreq_interactive/cpufreq_interactive_eval
	trace_wakeups burn
	settle_min 50
	echo 1 > $TRACING/tracing_on
	burn -c 1 -w 300 -t 1200 -n hd
	echo 0 > $TRACING/tracing_on
	trace_lines | burst_trace hd | awk '
		/decision=(raise|hint)/ { split($7, f, "=")
			if (f[2] == 600000 && !hs) hs = $1
			if (f[2] > 600000 && hs && !ab) ab = $1 }
		END { printf "%d\n", ab ? (ab - hs) * 1e6 : -1 }'
}
wr $IA/hispeed_freq 600000
short=$(held)
wr $IA/above_hispeed_delay 500000
long=$(held)
wr $IA/above_hispeed_delay 20000
wr $IA/hispeed_freq "$hispeed"
ktap_diag "at hispeed_freq 600 MHz, raised further after $short us (delay 20000), $long us (delay 500000)"
# Default: the next evaluation, or the one after it if the first came
# before the delay was over.
ktap_bound "with the default delay the speed goes above hispeed_freq within 2 x timer_rate + 2 ticks" \
	[ "$short" -ge 0 -a "$short" -le $((2 * rate + 2 * TICK_US)) ]
ktap_check "a large above_hispeed_delay holds the speed at hispeed_freq" \
	[ "$long" -ge 500000 ]

# --- timer_slack -----------------------------------------------------------
# after_burst SLACK: a burst on cpu1, then 1 s idle; prints "MIN IDLE
# KSOFTIRQD TASK AWAKE": us from the burst's end to the minimum speed (-1:
# not reached), and how many times the slack timer ran on a CPU in
# hardware idle (in the interrupt that woke it), in ksoftirqd, in a task,
# and in the idle task of an awake CPU (see hw_idle_marked).  At an idle
# exit the slack timer also backs the deferrable sampling timer up; those
# runs, on a CPU that is awake, wake none.
after_burst() {
	wr $IA/timer_slack "$1"
	# An idle CPU held above the minimum (timer_slack -1 before) takes the
	# new value when it next runs: make cpu1 run.
	burn -c 1 -t 30 -n kick
	trace_reset 2048
	trace_event power/cpu_frequency
	trace_event timer/timer_expire_entry
	trace_event power/cpu_idle
	settle_min 50
	echo 1 > $TRACING/tracing_on
	burn -c 1 -w 300 -t 300 -n sl
	sleep 1
	echo 0 > $TRACING/tracing_on
	# "idle|awake TASK-PID [CPU] FLAGS TIME: EVENT: ...".
	hw_idle_marked | awk -v fmin="$fmin" 'match($0, /[0-9]+\.[0-9]+: /) {
			ts = substr($0, RSTART, RLENGTH - 2) }
		/tracing_mark_write: sl_end/ { e = ts }
		/cpu_frequency:/ && e && !mn && /state=/ {
			v = $0; sub(/.*state=/, "", v); if (v + 0 == fmin) mn = ts }
		/function=interactive_slack_timer/ && e {
			if ($1 == "idle") n++
			else if ($2 ~ /^ksoftirqd/) k++
			else if ($2 ~ /^<idle>-0/) a++
			else t++ }
		END { printf "%d %d %d %d %d\n", mn ? (mn - e) * 1e6 : -1, n + 0, k + 0, t + 0, a + 0 }'
}
set -- $(after_burst -1)
ktap_diag "timer_slack -1: minimum after $1 us, slack timer runs: $2 on an idle CPU, $3 in ksoftirqd, $4 in a task, $5 in the idle task awake"
ktap_eq "timer_slack -1: no slack timer wakes an idle CPU" "$2" 0
# The bounds follow from the rules (down_bound in board.sh): an idle CPU
# above the minimum is evaluated timer_rate + timer_slack after it idles.
set -- $(after_burst 0)
b0=$(down_bound 300000 0 $TICK_US)
ktap_diag "timer_slack 0: minimum after $1 us (bound $b0), slack timer runs: $2 on an idle CPU, $3 in ksoftirqd, $4 in a task, $5 in the idle task awake"
ktap_bound "timer_slack 0: at the minimum within the bound for timer_slack 0" \
	[ "$1" -ge 0 -a "$1" -le "$b0" ]
# The count above sees a slack timer that wakes an idle CPU: with no slack
# it runs when the sample is due, before any deferrable timer.
ktap_check "timer_slack 0: the slack timer wakes the idle CPU" [ "$2" -ge 1 ]
set -- $(after_burst 80000)
b80=$(down_bound 300000 80000 $TICK_US)
ktap_diag "timer_slack 80000: minimum after $1 us (bound $b80), slack timer runs: $2 on an idle CPU, $3 in ksoftirqd, $4 in a task, $5 in the idle task awake"
ktap_bound "timer_slack 80000: at the minimum within the bound for timer_slack 80000" \
	[ "$1" -ge 0 -a "$1" -le "$b80" ]

# --- io_is_busy ------------------------------------------------------------
# io_mean V: io_is_busy V; cpu1 at the top speed (a burst), then waiting
# for reads of a null_blk device that complete after 1 ms; prints "MEAN
# IOWAIT": the mean speed (kHz) over a second of it, and cpu1's iowait
# share (percent) in that second.
iowait_cs() {
	awk '$1 == "cpu1" { print $6 }' /proc/stat
}
io_mean() {
	wr $IA/io_is_busy "$1"
	settle_min 50
	(burn -c 1 -t 200 -n io && iow -c 1 -t 2000 /dev/nullb0 > /dev/null) &
	ipid=$!
	sleep 0.7
	w0=$(iowait_cs)
	sum=0
	n=0
	while [ $n -lt 20 ]; do
		read -r f < $POLICY/scaling_cur_freq
		sum=$((sum + f))
		n=$((n + 1))
		sleep 0.05
	done
	w1=$(iowait_cs)
	wait $ipid
	echo $((sum / n)) $((w1 - w0))
}
# have_dev DEV: wait up to a second for the block device DEV.
have_dev() {
	n=0
	while [ ! -b "$1" ] && [ $n -lt 10 ]; do sleep 0.1; n=$((n + 1)); done
	[ -b "$1" ]
}
if modprobe null_blk irqmode=2 completion_nsec=1000000 nr_devices=1 gb=1 &&
	have_dev /dev/nullb0; then
	set -- $(io_mean 1)
	busy_mean=$1 busy_wait=$2
	set -- $(io_mean 0)
	idle_mean=$1 idle_wait=$2
	wr $IA/io_is_busy 1
	rmmod null_blk
	ktap_diag "waiting for I/O on cpu1: mean speed $busy_mean kHz with io_is_busy 1 (iowait $busy_wait cs), $idle_mean kHz with 0 (iowait $idle_wait cs)"
	# A precondition, but a share of time: on a debug kernel the block
	# layer's own CPU time can eat into it (a bound, TODO there).
	ktap_bound "reads of a slow device keep cpu1 waiting for I/O" \
		[ "$busy_wait" -ge 30 -a "$idle_wait" -ge 30 ]
	ktap_bound "io_is_busy 1 counts I/O wait as load, 0 as idle" \
		[ "$busy_mean" -ge $((idle_mean + 300000)) ]
else
	ktap_fail "reads of a slow device keep cpu1 waiting for I/O"
	ktap_fail "io_is_busy 1 counts I/O wait as load, 0 as idle"
fi

# --- Per-policy tunables ---------------------------------------------------
# The driver is unbound and bound under the governor: its exit and init
# run from the driver's removal and probe.
if modprobe cpufreq_dt_per_policy && wait_for $POLICY/scaling_driver 20 cpufreq-dt; then
	ktap_ok "cpufreq-dt rebound to ask for a governor per policy"
	set_governor interactive
	ktap_check "the tunables live in policy0/interactive/, not cpufreq/interactive/" \
		[ -d $POLICY/interactive -a ! -e $IA ]
	PA=$POLICY/interactive
	got=""
	for kv in hispeed_freq=$fmax go_hispeed_load=95 min_sample_time=20000 \
		timer_rate=20000 target_loads=90 above_hispeed_delay=20000 \
		timer_slack=80000 boost=0 boostpulse_duration=80000 io_is_busy=1 \
		sched_hint=1; do
		[ "$(cat $PA/${kv%%=*} 2>/dev/null)" = "${kv#*=}" ] || got="$got ${kv%%=*}"
	done
	ktap_eq "policy0's tunables start at their defaults" "${got# }" ""
	# The policy's own hispeed_freq is the speed a burst ramps to.
	wr $PA/hispeed_freq 600000
	trace_reset 1024
	trace_event power/cpu_frequency
	trace_wakeups burn
	settle_min 50
	echo 1 > $TRACING/tracing_on
	burn -c 2 -w 300 -t 300 -n pp
	echo 0 > $TRACING/tracing_on
	first=$(trace_lines | burst_trace pp |
		awk '/cpu_frequency:/ { split($3, f, "="); print f[2]; exit }')
	ktap_eq "a burst ramps to policy0's own hispeed_freq" "$first" 600000
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
		"a burst ramps to policy0's own hispeed_freq" \
		"a new governor instance on the policy starts from the defaults" \
		"rebound as before, the tunables are global again"; do
		ktap_fail "$t"
	done
	rmmod cpufreq_dt_per_policy 2>/dev/null
fi

trace_reset 1024
set_governor "$old_gov"
ktap_done
