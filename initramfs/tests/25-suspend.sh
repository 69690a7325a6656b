#!/bin/sh
# System suspend (suspend-to-idle, woken by the PL031 RTC's alarm) under
# the interactive governor, the idle notifiers and the CPU LEDs.
#
# The board has no platform suspend (no firmware, no suspend_ops): "mem"
# is suspend-to-idle, the state every platform has.  Tasks are frozen,
# devices suspended (cpufreq_suspend() stops the governor), and the CPUs
# idle, all of them online, until a wakeup interrupt: here the RTC alarm,
# which QEMU's PL031 raises whole seconds after the match register is
# written, so a cycle sleeps one second.
#
# CYCLES (200; 50 on the module variant, 20 on a debug kernel;
# suspend_cycles=N on the kernel command line) suspend/resume
# cycles, with load between them: after each resume the policy must come
# back to the minimum, then a CPU-bound burst on cpu1-3 in turn (started
# at a random phase of the tick, traced) must be decided up to
# hispeed_freq within timer_rate + 2 ticks of its wakeup (a window more
# when the first window on its CPU read a load below go_hispeed_load:
# another task, a kernel thread finishing the resume, shared the CPU, so
# the burst was not CPU-bound; counted and reported; and longer by the
# time the burst's CPU ran no tick, when QEMU left that virtual CPU
# unscheduled: the trace of its ticks shows it, and at most one burst in
# twenty may need it, counted and reported).  Every 20th
# cycle from the 5th the governor is switched to schedutil across the
# suspend (and back: fresh default tunables), from the 10th a CPU is
# offline across it (it stays offline, its LED dark, and comes back),
# from the 15th interactive's boost is on across it (the speed is still
# >= hispeed_freq after it, and falls when boost is cleared).  Then:
# every CPU online, the idle notifier's START and END still alternate and
# pair on every CPU (idle_listener.ko) and the LED idle events pair, the
# governor evaluates nothing while suspended, every LED right, no
# governor timer on an idle CPU at the minimum, the cpufreq statistics
# consistent.  One more suspend records the idle notifier's events
# (idle_listener's log) against the suspend's trace events: what
# Documentation/scheduler/idle-notifiers.rst promises for s2idle.  Last,
# CONTROL (10) cycles under ondemand, judged the same way with its bound:
# the burst machinery can pass on a stock governor.
. /lib/ktap.sh
. /lib/board.sh
. /lib/health.sh

CYCLES=200
# The module variant runs 50 (the same governor code; the 200 run on the
# built-in one: each cycle takes about 2 s in emulation).
grep -q "cpufreq_interactive\.ko:" /lib/modules/$(uname -r)/modules.dep && CYCLES=50
# A debug kernel (lockdep, KASAN) takes about 19 s a cycle (its policy
# rarely idles down to the minimum): 20 there, within the test's 900 s.
[ -e /proc/lockdep ] && CYCLES=20
CYCLES=$(cmdline suspend_cycles $CYCLES)
IA=$CPUFREQ/interactive
FMIN=$(cat $POLICY/cpuinfo_min_freq)
FMAX=$(cat $POLICY/cpuinfo_max_freq)
EV=/sys/kernel/debug/arm_leds/idle_events
LS=/sys/kernel/debug/idle_listener

ktap_plan 24

if ! grep -qw freeze /sys/power/state 2>/dev/null; then
	ktap_diag "no suspend-to-idle: /sys/power/state reads '$(cat /sys/power/state 2>&1)'"
	ktap_fail "the kernel offers suspend-to-idle"
	ktap_skip_rest "the kernel has no CONFIG_SUSPEND"
fi
ktap_ok "the kernel offers suspend-to-idle"
ktap_diag "/sys/power/state: $(cat /sys/power/state); mem_sleep: $(cat /sys/power/mem_sleep)"
ktap_check "mem is suspend-to-idle (mem_sleep offers s2idle only)" \
	[ "$(cat /sys/power/mem_sleep)" = "[s2idle]" ]
ktap_diag "rtc0: $(cat $RTC/name), wakeup $(cat $RTC/device/power/wakeup 2>&1)"
ktap_check "the PL031 RTC is a wakeup source" \
	[ "$(cat $RTC/device/power/wakeup 2>/dev/null)" = enabled ]

# reset: the policy's full range, interactive with its default tunables
# (a switch away and back gives fresh ones), every CPU online.
reset() {
	for c in $(online_cpus_except0); do set_online $c 1; done
	set_governor performance
	wr $POLICY/scaling_max_freq "$FMAX"
	wr $POLICY/scaling_min_freq "$FMIN"
	set_governor interactive
}
reset
HS=$(cat $IA/hispeed_freq)
RATE=$(cat $IA/timer_rate)
modprobe idle_listener || ktap_diag "idle_listener.ko does not load"
# stats: "TOTAL_TRANS TRANS_TABLE_SUM TIME_IN_STATE_SUM UPTIME_CS", the
# first two read until no transition came between the reads (the files
# are read apart, unlocked).
stats() {
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		read -r _t0 < $POLICY/stats/total_trans
		_sum=$(awk 'NR > 2 { for (i = 2; i <= NF; i++) s += $i } END { print s + 0 }' \
			$POLICY/stats/trans_table)
		read -r _t1 < $POLICY/stats/total_trans
		[ "$_t0" = "$_t1" ] && break
	done
	echo "$_t1 $_sum $(awk '{ s += $2 } END { print s + 0 }' $POLICY/stats/time_in_state) $(uptime_cs)"
}
set -- $(stats)
trans0=$1 tis0=$3 up0=$4
ok0=$(cat /sys/power/suspend_stats/success)
fail0=$(cat /sys/power/suspend_stats/fail)

trace_reset 8192
trace_event power/cpu_frequency
trace_event power/suspend_resume
trace_event cpufreq_interactive/cpufreq_interactive_eval
trace_wakeups burn
trace_ticks
settle_min 50
echo 1 > $TRACING/tracing_on
loop0=$(uptime_cs)

# cycles N MIX: N suspend/resume cycles, each followed by wait_min and a
# burst; MIX 1 mixes in the governor switch, the offline CPU and boost.
# OK counts those that suspended.  BAD collects what went wrong
# ("cycle:what"), ABORTS the suspends a wakeup event aborted.
cycles() {
	ok=0 tries=0 aborts=0 aborts_w=0 bad="" slow="" kinds="" t_sus=0 t_min=0 t_load=0
	while [ $ok -lt "$1" ] && [ $tries -lt $(($1 + $1 / 10 + 5)) ]; do
		tries=$((tries + 1))
		kind=plain
		[ "$2" = 1 ] && case $((ok % 20)) in
		5) kind=gov; set_governor schedutil ;;
		10) kind=offline; off=$((1 + ok / 20 % (NCPUS - 1))); set_online $off 0 ;;
		15) kind=boost; wr $IA/boost 1 ;;
		esac
		echo "cycle $ok $kind" > $TRACING/trace_marker
		t0=$(uptime_cs)
		if ! suspend_rtc 1; then
			echo "cycle $ok aborted: $SUSPEND_ERR" > $TRACING/trace_marker
			case "$SUSPEND_ERR" in
			*"in progress"*) aborts_w=$((aborts_w + 1)) ;;
			*busy*) aborts=$((aborts + 1)) ;;
			*) bad="$bad $ok:suspend($SUSPEND_ERR)" ;;
			esac
			[ $kind = gov ] && set_governor interactive
			[ $kind = offline ] && set_online $off 1
			[ $kind = boost ] && wr $IA/boost 0
			continue
		fi
		t_sus=$((t_sus + $(uptime_cs) - t0))
		echo "cycle $ok resumed" > $TRACING/trace_marker
		case $kind in
		gov)
			[ "$(cat $POLICY/scaling_governor)" = schedutil ] || bad="$bad $ok:gov=$(cat $POLICY/scaling_governor)"
			set_governor interactive ;;
		offline)
			[ "$(cat /sys/devices/system/cpu/cpu$off/online)" = 0 ] || bad="$bad $ok:cpu$off-online"
			[ "$(cat "$(led_of_cpu $off)/brightness")" = 0 ] || bad="$bad $ok:cpu$off-led-lit"
			set_online $off 1 || bad="$bad $ok:cpu$off-online-failed" ;;
		boost)
			f=$(cur_freq)
			[ "$f" -ge "$HS" ] || bad="$bad $ok:boost-lost($f)"
			wr $IA/boost 0 ;;
		esac
		kinds="$kinds $kind"
		[ "$(cat /sys/devices/system/cpu/online)" = "0-$((NCPUS - 1))" ] ||
			bad="$bad $ok:online=$(cat /sys/devices/system/cpu/online)"
		t0=$(uptime_cs)
		wait_min 50 || slow="$slow $ok:$(cur_freq)"
		t1=$(uptime_cs)
		# burn sleeps 200 ms before its load: starting it (a new
		# task, whose estimate the scheduler's hint serves) may raise
		# the speed, and an idle CPU above the minimum comes back
		# down only at its slack timer, timer_rate + timer_slack
		# (100 ms) later.  With 100 ms, one burst in ten found the
		# policy still at 600 or 400 MHz, with no ramp to show.
		burn -c $((1 + ok % (NCPUS - 1))) -w 200 -j $TICK_US -t 120 -n "c$ok"
		t_min=$((t_min + t1 - t0)) t_load=$((t_load + $(uptime_cs) - t1))
		ok=$((ok + 1))
	done
}
cycles "$CYCLES" 1
echo 0 > $TRACING/tracing_on
loop1=$(uptime_cs)
trace_lines > /tmp/suspend.trace
tick_lines > /tmp/suspend.ticks
set -- $(stats)
trans1=$1 tsum=$2 tis1=$3 up1=$4
ktap_diag "$ok suspends in $tries tries ($aborts aborted by a wakeup event before the board was down, $aborts_w not started: wakeup events in progress)," \
	"$((t_sus / (ok > 0 ? ok : 1)))0 ms a suspend/resume on average (the alarm: 1 s)," \
	"$(((loop1 - loop0) / (tries > 0 ? tries : 1)))0 ms a cycle with its load and checks" \
	"(back to the minimum $((t_min / (ok > 0 ? ok : 1)))0 ms, the burst $((t_load / (ok > 0 ? ok : 1)))0 ms)"
for k in gov offline boost; do
	ktap_diag "cycles with $k: $(echo $kinds | tr ' ' '\n' | grep -c "^$k$")"
done
[ -z "$bad" ] || ktap_diag "went wrong:$(echo $bad | cut -c1-600)"
[ -z "$slow" ] || ktap_diag "not at the minimum 5 s after the resume (cycle:kHz):$(echo $slow | cut -c1-300)"
ktap_eq "$CYCLES suspend/resume cycles woken by the RTC" "$ok" "$CYCLES"
ktap_check "at most one suspend in ten aborted by a wakeup event" \
	[ $(((aborts + aborts_w) * 10)) -le "$CYCLES" ]
ktap_eq "suspend_stats counts every suspend" \
	"$(($(cat /sys/power/suspend_stats/success) - ok0)) $(($(cat /sys/power/suspend_stats/fail) - fail0))" \
	"$ok $aborts"
ktap_eq "each cycle: every CPU online, the switched governor, the offline CPU and boost kept" \
	"$bad" ""
ktap_bound "each cycle: back at the minimum within 5 s of the resume" [ -z "$slow" ]

# From the trace: each suspend entered suspend-to-idle once and came back;
# the governor (stopped by cpufreq_suspend() in dpm_suspend, started again
# by cpufreq_resume() in dpm_resume) evaluated nothing in between; each
# burst was decided up to hispeed_freq within timer_rate + 2 ticks of its
# wakeup (burn's sched_wakeup before its start marker), from the minimum.
burst_stats() {
	awk -v mode="$1" -v bound="$2" -v hs="$HS" -v fmin="$FMIN" \
	-v rate="$RATE" -v ghl="$(cat $IA/go_hispeed_load 2>/dev/null || echo 100)" \
	-v tf="${4:-/dev/null}" -v tick="$TICK_US" '
	function us(t) { return int((t - t0) * 1e6 + 0.5) }
	BEGIN { while ((getline l < tf) > 0) { split(l, a, " "); tk[a[1], nt[a[1]]++] = a[2] } }
	'"$TICK_GAP_AWK"'
	/suspend_resume: machine_suspend\[[0-9]+\] begin/ { s2i++; sb = $1 }
	/suspend_resume: machine_suspend\[[0-9]+\] end/ { s2e++; if (sb) { d = $1 - sb; tot += d; if (d > dmax) dmax = d } }
	/suspend_resume: dpm_suspend\[[0-9]+\] end/ { down = 1 }
	/suspend_resume: dpm_resume\[[0-9]+\] begin/ { down = 0 }
	/cpufreq_interactive_eval:/ && down { evals++ }
	/cpu_frequency:/ { split($3, f, "="); lvl = f[2] + 0 }
	/sched_wakeup: comm=burn / { w = $1; wl = lvl }
	/tracing_mark_write: c[0-9]+_start/ {
		fresh = w && w > m
		t0 = fresh ? w : $1; n++
		# A burst that found the policy above the minimum (the shell
		# that started it, a kernel thread) cannot show the ramp.
		l0 = fresh ? wl : lvl
		if (l0 != fmin) { notmin++; if (notmin <= 5) nm = nm " " $3 "@" l0; next }
		on = 1; first = 0; shared = 0; bcpu = $4
	}
	/tracing_mark_write: cycle / { m = $1; cyc = $4 }
	# The first window evaluated on the burst CPU: a load below
	# go_hispeed_load means another task had part of the CPU (after a
	# resume, kernel threads finishing it), so the burst was not
	# CPU-bound: it may take one more window (shared).
	on && !first && /cpufreq_interactive_eval: cpu=/ && $3 == bcpu && !/decision=hint/ {
		split($4, f, "="); first = 1; shared = (f[2] + 0 < ghl)
	}
	# The decision: traced by interactive (mode eval); a governor that
	# traces none (mode speed) is judged on the speed change itself.
	on && (mode == "eval" ? /decision=(raise|hint)/ : /cpu_frequency:/) {
		split(mode == "eval" ? $7 : $3, f, "=")
		if (f[2] + 0 >= hs) { v = us($1); on = 0
			if (shared) nshared++
			# The CPU missed ticks (the emulator did not run it):
			# the bound grows by the time it lost, counted apart.
			lost = tick_lost(substr(bcpu, 5) + 0, t0, $1)
			b = bound + (shared ? rate : 0)
			if (v > b && v <= b + lost) { nlost++; if (lost > maxlost) maxlost = lost }
			else if (v > b) { late++; if (late <= 2) ll = ll " " cyc }
			if (v > vmax) vmax = v; vs += v; dec++ }
	}
	/tracing_mark_write: c[0-9]+_end/ { if (on) { never++; if (never <= 2) ll = ll " " cyc }; on = 0 }
	END { printf "%d %d %d %d %d %d %d %d %d %d %d %d %d\n", s2i, s2e, evals, n, dec,
		late, never, notmin, vmax, dec ? vs / dec : -1, nshared, nlost, maxlost
		printf "%d %d %s :%s\n", s2e ? tot / s2e * 1000 : -1, dmax * 1000, nm, ll }' "$3"
}
set -- $(burst_stats eval $((RATE + 2 * TICK_US)) /tmp/suspend.trace /tmp/suspend.ticks)
s2i=$1 s2e=$2 evals=$3 nb=$4 dec=$5 late=$6 never=$7 notmin=$8 vmax=$9
shift 9
vmean=$1 nshared=$2 nlost=$3 maxlost=$4 s2mean=$5 s2max=$6
shift 6
notmin_list=${*%%:*}
late_list=${*#*:}
ktap_diag "suspend-to-idle entered $s2i times, left $s2e: $s2mean ms on average, at most $s2max ms"
ktap_eq "each suspend entered suspend-to-idle once" "$s2i $s2e" "$ok $ok"
ktap_eq "the governor evaluates nothing while the board is suspended" "$evals" 0
ktap_diag "$nb bursts after a resume, $((nb - notmin)) from the minimum: $dec decided >= $HS kHz (mean $vmean us, at most $vmax us; bound $((RATE + 2 * TICK_US)) us, a window more for the $nshared whose CPU another task shared), $late late, $never never"
[ "$notmin" = 0 ] || ktap_diag "not from the minimum (burst@kHz):$notmin_list"
ktap_diag "$nlost decided past the bound but within it and the time their CPU ran no tick (the emulator did not run the virtual CPU; at most $maxlost us lost; $(wc -l < /tmp/suspend.ticks) ticks traced)"
ktap_bound "a burst after each resume, at least 90% of them from the minimum" \
	[ "$nb" = "$ok" -a $((notmin * 10)) -le "$nb" ]
# The first two late (or never decided) bursts, as traced.
for c in $late_list; do
	awk -v c="$c" '/tracing_mark_write: cycle / { on = ($4 == c) }
		on && !/suspend_resume: (dpm|device)/ { print "# " $0 }
		on && /tracing_mark_write: c[0-9]+_end/ { exit }' /tmp/suspend.trace | tail -n 40
done
ktap_bound "each burst from the minimum after a resume is decided up to hispeed_freq within timer_rate + 2 ticks" \
	[ "$dec" = $((nb - notmin)) -a "$late" = 0 -a "$never" = 0 -a $((nlost * 20)) -le "$nb" ]

ktap_eq "every CPU online after the cycles" "$(cat /sys/devices/system/cpu/online)" "0-$((NCPUS - 1))"
# The idle notifier across the suspends: START and END alternate on every
# CPU, and balance (a CPU reading its own counts is not idle).
bad=""
for c in $(seq 0 $((NCPUS - 1))); do
	set -- $(taskset -c $c cat $LS/stats | awk -v c=$c '$1 == c')
	[ $# = 5 ] || { bad="$bad cpu$c:no-listener-stats"; continue; }
	[ "$4" = 0 ] || bad="$bad cpu$c:$4-out-of-order"
	# (A CPU idle when the listener registered sent an END first.)
	d=$(($2 - $3 - $5))
	[ "$d" = 0 ] || [ "$d" = -1 ] || bad="$bad cpu$c:start$2-end$3-in$5"
	set -- $(taskset -c $c cat $EV | awk -v c=$c '$1 == c { print $2, $3 }')
	[ "$1" = "$2" ] || bad="$bad cpu$c:led-start$1-end$2"
done
ktap_eq "idle notifier START/END alternate and pair on every CPU, the LED idle events pair" "$bad" ""

# cpufreq statistics: every second counted in some state, every
# transition in the table, and transitions for every burst.
ktap_diag "stats: total_trans $trans0 -> $trans1 (trans_table sum $tsum), time_in_state +$((tis1 - tis0)) cs over $((up1 - up0)) cs"
d=$(((tis1 - tis0) - (up1 - up0)))
ktap_check "cpufreq stats consistent (time_in_state follows the clock, trans_table sums to total_trans)" \
	[ "$tsum" = "$trans1" -a "${d#-}" -le $(((up1 - up0) / 50 + 10)) -a $((trans1 - trans0)) -ge "$ok" ]

# Every LED right after the cycles.
bad=""
for c in $(seq 0 $((NCPUS - 1))); do
	led_busy_idle $c 20
	set -- $LED_SAMPLES
	led_lit "$1" "$2" || bad="$bad cpu$c:busy-lit-$1/$2"
	led_dark "$3" "$4" || bad="$bad cpu$c:idle-lit-$3/$4"
done
ktap_eq "every CPU's LED lit when busy and dark when idle after the cycles" "$bad" ""

set -- $(idle_gov_wakeups 3 "$FMIN")
ktap_diag "3 s idle at minimum after the cycles: $1 governor evaluations, $3 woke an idle CPU"
ktap_eq "no governor timer wakes an idle CPU at the minimum after the cycles" "$3" 0

# What the idle notifier sends during suspend-to-idle: one more suspend,
# with the listener's log of events (local_clock(), the trace's clock)
# placed against the suspend's own trace events.
trace_reset 4096
trace_event power/suspend_resume
settle_min 50
echo 1 > $TRACING/tracing_on
echo "contract" > $TRACING/trace_marker
# The suspending task on cpu0, the others idle.
self=$(taskset -p $$ | sed 's/.*: //')
taskset -p -c 0 $$ >/dev/null
suspend_rtc 1 freeze
rc=$?
taskset -p "$self" $$ >/dev/null
echo 0 > $TRACING/tracing_on
ktap_eq "freeze (suspend-to-idle by name) suspends and resumes" "$rc${SUSPEND_ERR:+ $SUSPEND_ERR}" 0
trace_lines > /tmp/contract.trace
cat $LS/events > /tmp/contract.events
# t(name begin|end): the time of the suspend's trace event.
tev() { awk -v p="suspend_resume: $1\\\\[[0-9]+\\\\] $2" '$0 ~ p { print $1; exit }' /tmp/contract.trace; }
frz=$(tev freeze_processes begin) s2b=$(tev machine_suspend begin)
s2e=$(tev machine_suspend end) thaw=$(tev thaw_processes end)
[ -n "$thaw" ] || thaw=$(tev suspend_enter end)
ktap_diag "contract suspend: freeze $frz, s2idle $s2b .. $s2e, thawed $thaw"
# Per CPU, the events inside suspend-to-idle (machine_suspend begin..end)
# and over the whole suspend (freezing to thawed): "CPU S2IDLE_EVENTS
# ALTERNATE FIRST LAST IDLE_PERMILLE", IDLE_PERMILLE the part of the s2idle
# window the CPU spent between a START and an END.
awk -v a="$s2b" -v b="$s2e" -v fa="$frz" -v fb="$thaw" '
	{ t = $2 / 1e9; c = $1 }
	t >= fa && t <= fb {
		if (c in last && last[c] == $3) alt[c]++
		last[c] = $3
	}
	t < a { pre[c] = $3 }
	t >= a && t <= b {
		if (!(c in n) && pre[c] == "S") st[c] = a
		n[c]++; seq[c] = seq[c] $3
		if ($3 == "S") st[c] = t
		else if (c in st) { idle[c] += t - st[c]; delete st[c] }
		if (!(c in first)) first[c] = $3
	}
	END {
		for (c = 0; c < ncpu; c++) {
			if (c in st) idle[c] += b - st[c]
			else if (!(c in n) && pre[c] == "S") idle[c] = b - a
			printf "%d %d %d %s %s %d\n", c, n[c], alt[c] + 0,
				(c in first) ? first[c] : "-", (c in n) ? substr(seq[c], length(seq[c])) : "-",
				(b > a) ? idle[c] / (b - a) * 1000 : -1
		}
	}' ncpu="$NCPUS" /tmp/contract.events > /tmp/contract.cpus
while read -r c n alt first last idle; do
	ktap_diag "cpu$c in s2idle: $n events, first $first, last $last, idle $idle permille of it;" \
		"$alt out of order over the suspend"
done < /tmp/contract.cpus
ktap_check "during suspend-to-idle START and END alternate on every CPU" \
	awk '$3 != 0 { exit 1 }' /tmp/contract.cpus
ktap_check "every CPU idles through most of suspend-to-idle (>= 90% in idle periods)" \
	awk -v n="$NCPUS" '$6 < 900 { exit 1 } END { exit NR != n }' /tmp/contract.cpus
# Every CPU sends an event in it: an idle one is kicked out of its idle
# period at the entry (END, START), a busy one goes idle (START); the
# suspending CPU's last is the END of its wakeup.
ktap_check "every CPU sends an event inside suspend-to-idle; the suspending CPU's last is END" \
	awk '$2 < 1 { exit 1 } $1 == 0 && $5 != "E" { exit 1 }' /tmp/contract.cpus

modprobe -r idle_listener

# The same cycles under ondemand (sampling_rate = timer_rate), whose
# behaviour a quick ramp after a resume is too: the machinery can pass.
# Ondemand traces no decisions, so its time is to the speed change (which
# may land up to LAND_US after the decision, see 24-interactive-trials.sh);
# its first sample after an idle period measures mostly idle time, so its
# bound is one sampling period longer: 2 x sampling_rate + 2 ticks.
CONTROL=10
LAND_US=100000
if set_governor ondemand 2>/dev/null; then
	wr $CPUFREQ/ondemand/sampling_rate "$RATE"
	trace_reset 4096
	trace_event power/cpu_frequency
	trace_event power/suspend_resume
	trace_wakeups burn
	settle_min 50
	echo 1 > $TRACING/tracing_on
	cycles $CONTROL 0
	echo 0 > $TRACING/tracing_on
	trace_lines > /tmp/control.trace
	cbound=$((2 * RATE + 2 * TICK_US + LAND_US))
	set -- $(burst_stats speed $cbound /tmp/control.trace)
	ktap_diag "ondemand: $ok suspends in $tries tries; $4 bursts, $8 not from the minimum; $5 raised >= $HS kHz (mean ${10} us, at most $9 us; bound $cbound us), $6 late, $7 never"
	ktap_eq "ondemand control: $CONTROL cycles, each back at the minimum after the resume" \
		"$ok${bad:+ bad:$bad}${slow:+ slow:$slow}" "$CONTROL"
	ktap_bound "ondemand control: each burst from the minimum is raised to hispeed_freq within 2 x sampling_rate + 2 ticks (+ landing)" \
		[ "$5" = $(($4 - $8)) -a "$6" = 0 -a "$7" = 0 -a "$4" = "$ok" -a $(($8 * 10)) -le "$4" ]
else
	ktap_skip "ondemand control: $CONTROL cycles" "governor ondemand unavailable"
	ktap_skip "ondemand control: bursts raised" "governor ondemand unavailable"
fi

reset
ktap_ramps "after the suspend cycles" "the governor still ramps a burst after the suspend cycles"
ktap_done
