#!/bin/sh
# The interactive governor answers the same load the same way every time:
# each behaviour of its timing contract is tried TRIALS times (20) in one
# boot, each load started at a random phase of the tick from a board idle
# at the minimum speed, and every trial must hold.  Times are guest time
# from ftrace timestamps, from the load's wakeup (sched_wakeup of burn).
#
#   ramp      a CPU-bound burst reaches hispeed_freq within timer_rate +
#             2 ticks
#   busy97    a 97% load in 9.5 ms stretches leaves the minimum within
#             three timer periods
#   light20   a 20% load in 5 ms stretches (timer_rate / 4) never asks
#             for hispeed_freq (its CPU's decisions, traced; the policy's
#             speed under ondemand): the other CPUs of the policy may
#             rightly raise it for their own load, or for the host's noise
#   maxup     raising scaling_max_freq under a busy CPU is followed within
#             timer_rate + 2 ticks
#   drop      after bursts of 0.5, 2 and 5 s the speed leaves the top
#             within timer_rate + timer_slack + 3 ticks of the burst's end
#             (the CPU idles: its slack timer evaluates it; a tick of
#             rounding for each of the two timers, one for the speed
#             change to land), the same for each length; a sibling CPU
#             that asks for the top again after the burst (the test
#             shell's own load) starts the time again
#   wake      a task the scheduler remembers as busy (burn -p: 200 ms of
#             load, then 1 s asleep) is raised to hispeed_freq at its
#             wakeup: the decision (a "hint" from its util_est) within a
#             tick of it, where a window takes timer_rate.  With
#             sched_hint 0 (the 2012 rule), CONTROL_TRIALS times, none
#             is decided within a tick and each within the ramp's bound
#             (a window): the hint is what makes it fast.  Under
#             schedutil, which raises from the same estimate and traces
#             no decisions, CONTROL_TRIALS times: it lands within LAND_US
#
# Each bound is on the governor's decision: the first traced
# cpufreq_interactive_eval of any CPU that asks for the speed (or the
# speed's change itself, if that came first).  The change must then land
# within LAND_US (100 ms): that part is the platform's, the raising
# thread's wakeup on another emulated CPU and two config bus transactions,
# a millisecond on an idle host but tens of them when the host is busy
# (up to 39 ms measured with one host CPU kept busy), which no guest
# timing can tell from a slow governor.  Both are reported.
#
# The same machinery runs under ondemand, with sampling_rate = timer_rate,
# whose behaviour these are too, CONTROL_TRIALS times each: the test can
# pass.  Ondemand traces no decisions, so its times are to the speed's
# change.  Its first sample after an idle period measures the time since
# its last sample, mostly idle, so its ramp bound is one sampling period
# longer: 2 x sampling_rate + 2 ticks.  Every tunable is reset first: a
# governor switch away and back gives the interactive governor fresh
# default tunables.
. /lib/ktap.sh
. /lib/board.sh

TRIALS=20
CONTROL_TRIALS=5
IA=$CPUFREQ/interactive
FMIN=$(cat $POLICY/cpuinfo_min_freq)
FMAX=$(cat $POLICY/cpuinfo_max_freq)
BEHAVIOURS="ramp busy97 light20 maxup drop"

ktap_plan 15

# reset GOV: the policy's full range, GOV with its default tunables.
reset() {
	set_governor performance
	wr $POLICY/scaling_max_freq "$FMAX"
	wr $POLICY/scaling_min_freq "$FMIN"
	set_governor "$1" || return 1
	if [ "$1" = ondemand ]; then
		wr $CPUFREQ/ondemand/sampling_rate $RATE
	fi
	return 0
}

# trace_setup: what the trials record; the event switches patch kernel
# text on every CPU (load), so settle at the minimum afterwards.
trace_setup() {
	trace_reset 4096
	trace_event power/cpu_frequency
	trace_event power/cpu_frequency_limits
	[ -d $TRACING/events/cpufreq_interactive ] &&
		trace_event cpufreq_interactive/cpufreq_interactive_eval
	trace_wakeups burn
	settle_min 50
	trace_on
}

# trace_on: record from now, the speed now first.
trace_on() {
	echo 1 > $TRACING/tracing_on
	read -r _f < $POLICY/scaling_cur_freq
	mark "trace_start cur=$_f"
}

# at_min: wait (up to 5 s) for the minimum speed, then a little more, so
# the next load starts from a settled board.
at_min() {
	wait_min 50 || return 1
	usleep 100000
}

# mark TEXT: a line in the trace.
mark() {
	echo "$1" > $TRACING/trace_marker
}

# One trial of each behaviour; NAME is the trial's unique marker name.
trial_ramp() {
	burn -c 1 -w 200 -j $TICK_US -t 150 -n "$1"
}

trial_busy97() {
	burn -c 2 -w 200 -j $TICK_US -t 300 -d 9500:10000 -n "$1"
}

LIGHT_SLOP_US=1000
trial_light20() {
	burn -c 1 -w 200 -j $TICK_US -t 1000 -d 5000:25000 -L $LIGHT_SLOP_US \
		-n "$1"
}

trial_wake() {
	burn -c 1 -p 200 -w 1000 -j $TICK_US -t 150 -n "$1"
}

trial_maxup() {
	# Busy at the top, then capped, then the cap raised again at a
	# random phase of the tick.
	burn -c 1 -t 800 -n "$1" &
	_pid=$!
	usleep 300000
	wr $POLICY/scaling_max_freq 600000
	usleep $((100000 + RANDOM % TICK_US))
	mark "$1_raise"
	wr $POLICY/scaling_max_freq "$FMAX"
	wait $_pid
}

trial_drop() {
	case $(($2 % 3)) in
	0) _ms=500 ;; 1) _ms=2000 ;; *) _ms=5000 ;;
	esac
	burn -c 1 -w 200 -j $TICK_US -t $_ms -n "$1"
	usleep 300000
}

# analyse BEHAVIOUR HISPEED: one line per trial of the trace on stdin:
# "NAME VALID VALUE LENGTH_MS LONGEST_US EXCUSED DECIDED".  VALID: the load
# started at the minimum (for drop, and ended at the top; for maxup: was
# capped below the top when the cap was raised).  VALUE, in us from the
# load's start (burn's wakeup before its start marker, or the marker):
# ramp: to speed >= HISPEED; busy97: to speed > min; maxup: from the
# raised limit (the policy's cpu_frequency_limits event after the raise
# marker, else the marker) to the top speed; drop: from the end marker to
# a speed below the top; light20: the highest speed the loaded CPU asked
# for (its traced decisions; under a governor that traces none, the
# policy's speed), kHz.  -1: never.  LENGTH_MS: how long the load ran;
# LONGEST_US: its longest busy stretch (duty cycles only).  DECIDED: the
# same time to the first traced decision of any CPU that asks for that
# speed (cpufreq_interactive_eval), or VALUE where there is none.
#
# light20 only: a busy stretch that ran more than LIGHT_SLOP_US longer than
# the 5 ms asked for (burn -L marks it, "NAME_long us=N") means the CPU was
# taken from burn, by another task or by the host descheduling the
# emulated CPU: the guest saw a longer busy stretch, and a governor may
# rightly raise the speed for it.  A request whose sample window (the
# decision's last RATE + 2 ticks; a speed change's last 2 x RATE + 3
# ticks) overlaps such a stretch is excused: EXCUSED counts those that
# asked for HISPEED or more, and VALUE is the highest of the others.
# drop only: EXCUSED counts the requests for the top speed after the
# burst, each of which started the time again (see decide()).
analyse() {
	awk -v b="$1" -v hs="$2" -v fmin="$FMIN" -v fmax="$FMAX" \
	    -v wev=$(((RATE + 2 * TICK_US))) -v wsp=$((2 * RATE + 3 * TICK_US)) '
	function us(t) { return int((t - t0) * 1e6 + 0.5) }
	# A speed change at time t while a trial is on.
	function speed(t, c) {
		if ((b == "ramp" || b == "wake") && !hit && c >= hs) {
			hit = 1; v = us(t)
		}
		if (b == "busy97" && !hit && c > fmin) { hit = 1; v = us(t) }
		if (b == "light20" && !ended) { st[ns] = t; sv[ns] = c; ns++ }
		if (b == "maxup" && raised && !hit && c >= fmax) { hit = 1; v = us(t) }
		if (b == "drop" && ended && !hit && c < top) { hit = 1; v = us(t) }
		# A speed that landed was asked for by then.
		if (hit && dv < 0) dv = v
		if (b == "drop" && hit) done()
	}
	# A decision D (raise, lower, ..., hint: a raise from the
	# estimate of the scheduler) asking for NEW, at time t.
	# drop: after the burst, the policy asks for less than the top once
	# no CPU does (tg: the target of each CPU, from its last decision).
	# A CPU that asks for the top again after the burst (a sibling
	# running the test shell) starts the time again from its request.
	function decide(t, d, nw,   i, m, up) {
		up = (d == "raise" || d == "hint")
		if (b == "drop" && ended && !hit) {
			if (up && nw >= top) { t0 = t; dv = -1; rer++ }
			m = 0
			for (i in tg) if (tg[i] > m) m = tg[i]
			if (dv < 0 && m < top) dv = us(t)
			return
		}
		if (dv >= 0) return
		if (((b == "ramp" || b == "wake") && up && nw >= hs) ||
		    (b == "busy97" && up && nw > fmin) ||
		    (b == "maxup" && raised && up && nw >= fmax))
			dv = us(t)
	}
	# Does a long busy stretch overlap the W us before time t?
	function excused(t, w,   i) {
		for (i = 0; i < nl; i++)
			if (le[i] >= t - w / 1e6 && ls[i] <= t) return 1
		return 0
	}
	function done(   i) {
		exc = 0
		if (b == "light20" && nev) {
			# The decisions of the loaded CPU.
			for (i = 0; i < nev; i++)
				if (excused(et[i], wev)) exc += (ev[i] >= hs)
				else if (ev[i] > v) v = ev[i]
		} else if (b == "light20") {
			# No decisions traced: the speed changes of the policy.
			for (i = 0; i < ns; i++)
				if (excused(st[i], wsp)) exc += (sv[i] >= hs)
				else if (sv[i] > v) v = sv[i]
		}
		if (b == "light20") dv = v
		if (b == "drop") exc = rer
		print name, valid, v, len, longest, exc, dv
		on = 0; ended = 0
	}
	/cpufreq_interactive_eval:/ {
		split($7, f, "="); nw = f[2] + 0
		split($8, f, "="); d = f[2]
		split($3, f, "="); tg[f[2]] = nw
		if (on && !ended && b == "light20" && $3 == "cpu=" lcpu) {
			et[nev] = $1; ev[nev] = nw; nev++
		}
		if (on) decide($1, d, nw)
		else if (wake) {
			bt[nbuf] = $1; bk[nbuf] = d; bc[nbuf] = nw; nbuf++
		}
		next
	}
	/cpu_frequency_limits:/ {
		# The raised limit in force: the governor may act from here.
		if (on && raised == 1 && $4 == "max=" fmax) {
			raised = 2; t0 = $1
		}
		next
	}
	/sched_wakeup: comm=burn / {
		# burn sleeps before its load: the last wakeup before the
		# start marker begins it; changes since are replayed then.
		if (!on) { wake = $1; wake_cur = cur; nbuf = 0 }
		next
	}
	/cpu_frequency:/ {
		split($3, f, "="); c = f[2] + 0
		# One event per CPU of the policy: count a change once.
		if (c == cur) next
		cur = c
		if (on) speed($1, cur)
		else if (wake) { bt[nbuf] = $1; bk[nbuf] = ""; bc[nbuf] = cur; nbuf++ }
		next
	}
	/tracing_mark_write: trace_start/ { split($4, f, "="); cur = f[2] + 0; next }
	/tracing_mark_write: / {
		m = $3
		if (m ~ /_start$/) {
			if (on) done()
			name = substr(m, 1, length(m) - 6)
			on = 1; hit = 0; raised = 0; ended = 0; len = 0; longest = 0
			dv = -1
			lcpu = substr($4, 5); nev = 0; ns = 0; nl = 0
			if (wake && wake > last_end) {
				t0 = wake; valid = (wake_cur == fmin)
				v = (b == "light20") ? wake_cur : -1
				for (i = 0; i < nbuf; i++)
					if (bk[i] == "") speed(bt[i], bc[i])
					else decide(bt[i], bk[i], bc[i])
			} else {
				t0 = $1; valid = (cur == fmin)
				v = (b == "light20") ? cur : -1
			}
			if ((b == "ramp" || b == "wake") && !hit && cur >= hs) {
				hit = 1; v = us($1)
			}
			if (hit) dv = v
			start = t0
		} else if (m ~ /_long$/ && on) {
			# A busy stretch that ran long, ending now.
			split($5, f, "="); le[nl] = $1; ls[nl] = $1 - f[2] / 1e6
			nl++
		} else if (m ~ /_raise$/ && on) {
			# Valid: capped below the top when the cap rose.
			raised = 1; t0 = $1; valid = cur < fmax; hit = 0; v = -1
			dv = -1
		} else if (m ~ /_end$/ && on) {
			last_end = $1; wake = 0; nbuf = 0
			len = int(($1 - start) * 1000 + 0.5)
			longest = 0
			if ($5 ~ /^longest=/) { split($5, f, "="); longest = f[2] + 0 }
			if (b == "drop") {
				ended = 1; t0 = $1; top = cur; dv = -1; rer = 0
				valid = valid && cur >= fmax
			} else {
				done()
			}
		}
		next
	}
	END { if (on && !(b == "drop" && !ended)) done() }'
}

# run GOV BEHAVIOUR N: N valid trials of BEHAVIOUR under GOV.  Trials that
# did not start from the minimum (something else ran) are made up for,
# in up to two more rounds.  Reading the trace is slow under emulation:
# it is read once a round.  Leaves the analysis in /tmp/GOV-BEHAVIOUR.res
# and the trace in .trace.
run() {
	_g=$1 _b=$2 _n=$3
	_t0=$(uptime_cs)
	reset "$_g"
	# A tunable a run needs other than its default (RUN_SETUP).
	eval "$RUN_SETUP"
	trace_setup
	_valid=0 _tries=0 _round=0
	while [ $_valid -lt "$_n" ] && [ $_round -lt 3 ]; do
		_k=$((_n - _valid))
		while [ $_k -gt 0 ]; do
			at_min
			trial_$_b "$_b$_tries" $_tries
			_tries=$((_tries + 1))
			_k=$((_k - 1))
		done
		echo 0 > $TRACING/tracing_on
		trace_lines > /tmp/$_g-$_b.trace
		analyse $_b "$(cat $IA/hispeed_freq 2>/dev/null || echo $FMAX)" \
			< /tmp/$_g-$_b.trace > /tmp/$_g-$_b.res
		_valid=$(awk '$2 == 1' /tmp/$_g-$_b.res | wc -l)
		_round=$((_round + 1))
		trace_on
	done
	echo 0 > $TRACING/tracing_on
	trace_reset 1024
	_secs=$((($(uptime_cs) - _t0) / 100))
}

# judge GOV BEHAVIOUR N BOUND: the KTAP case: N valid trials, each within
# BOUND (for light20: each below BOUND kHz).
judge() {
	_g=$1 _b=$2 _n=$3 _bound=$4
	set -- $(awk -v bound="$_bound" -v b="$_b" -v land="$LAND_US" '
		!$2 { bad_start++; next }
		{ n++; v = $7 + 0; lag = $3 - $7
		  if (b == "light20") ok = v < bound
		  else ok = v >= 0 && v <= bound && $3 >= 0 && lag <= land
		  if (!ok && !miss++) first = $1
		  if (n == 1 || v < lo) lo = v; if (v > hi) hi = v; sum += v
		  if ($3 < 0) lag = -1
		  if (n == 1 || lag > lhi) lhi = lag
		  exc += $6 }
		END { printf "%d %d %d %d %d %d %d %d %s\n", n, miss, bad_start,
			lo, n ? sum / n : 0, hi, exc, lhi, first ? first : "-" }' \
		/tmp/$_g-$_b.res)
	_unit=us
	[ "$_b" = light20 ] && _unit=kHz
	_not="+$3 not from the minimum"
	[ "$_b" = light20 ] && _not="$_not; $7 requests for hispeed_freq excused by a busy stretch over $((5000 + LIGHT_SLOP_US)) us"
	[ "$_b" = drop ] && _not="$_not; the top asked for again after the burst $7 times"
	_land=
	[ "$_b" = light20 ] ||
		_land=", landed at most $8 us after (bound $LAND_US us)"
	ktap_diag "$_g $_b: $1 trials ($_not), decided min/mean/max $4/$5/$6 $_unit, bound $_bound $_unit$_land, $2 missed ($_secs s)"
	if [ "$1" -lt "$_n" ] || [ "$2" != 0 ]; then
		ktap_diag "$_g $_b trials (name valid landed length_ms longest_us excused decided):"
		sed 's/^/#   /' /tmp/$_g-$_b.res | head -40
		# The trace of the first trial that missed, from where its
		# time counts: the cap's raise (maxup), the burst's end (drop),
		# else the trial's start.
		_w=$9
		_from=start
		[ "$_b" = maxup ] && _from=raise
		[ "$_b" = drop ] && _from=end
		# With the 30 ms before it (burn's wakeup, what ran then).
		ktap_diag "trace of $_w, from 30 ms before its ${_from} marker:"
		awk -v m="$_w" -v from="$_from" '$3 == m "_" from {
				for (i = n - 400; i < n; i++)
					if (i >= 0 && bt[i % 400] >= $1 - 0.03) print bl[i % 400]
				on = 1 }
			!on { bt[n % 400] = $1; bl[n % 400] = $0; n++ }
			on && /_start/ && $3 != m "_start" { exit }
			on' /tmp/$_g-$_b.trace | head -70 | sed 's/^/#   /'
	fi
	ktap_bound "$_g: $_b holds in each of $_n trials" \
		[ "$1" -ge "$_n" -a "$2" = 0 ]
}

old_gov=$(cat $POLICY/scaling_governor)
LAND_US=100000
RATE=20000
SLACK=80000
for g in interactive ondemand; do
	ntr=$TRIALS
	[ $g = interactive ] || ntr=$CONTROL_TRIALS
	if ! reset $g; then
		for b in $BEHAVIOURS; do ktap_skip "$g: $b" "governor $g unavailable"; done
		continue
	fi
	if [ $g = interactive ]; then
		ktap_eq "interactive: tunables at their defaults" \
			"$(cat $IA/timer_rate) $(cat $IA/timer_slack) $(cat $IA/hispeed_freq)" \
			"$RATE $SLACK $FMAX"
	fi
	hs=$FMAX
	run $g ramp $ntr
	if [ $g = interactive ]; then
		judge $g ramp $ntr $((RATE + 2 * TICK_US))
	else
		judge $g ramp $ntr $((2 * RATE + 2 * TICK_US))
	fi
	run $g busy97 $ntr
	judge $g busy97 $ntr $((3 * RATE))
	run $g light20 $ntr
	judge $g light20 $ntr "$hs"
	run $g maxup $ntr
	judge $g maxup $ntr $((RATE + 2 * TICK_US))
	# Three lengths: 3 trials at least, a multiple of 3 under control.
	[ $g = interactive ] || ntr=3
	run $g drop $ntr
	ktap_diag "$g drop, worst per burst length (ms: us): $(awk '$2 == 1 {
		l = int(($4 + 250) / 500) * 500; if (!(l in w) || $3 > w[l]) w[l] = $3 }
		END { for (l in w) printf "%d: %d  ", l, w[l] }' /tmp/$g-drop.res)"
	judge $g drop $ntr $((RATE + SLACK + 3 * TICK_US))
done

# wake: the raise at a wakeup from the scheduler's estimate (sched_hint).
RUN_SETUP=
if reset interactive; then
	run interactive wake $TRIALS
	judge interactive wake $TRIALS $TICK_US
	RUN_SETUP="wr $IA/sched_hint 0"
	run interactive wake $CONTROL_TRIALS
	RUN_SETUP=
	set -- $(awk -v tick=$TICK_US -v bound=$((RATE + 2 * TICK_US)) '
		$2 { n++; v = $7 + 0
		     if (v >= 0 && v <= tick) fast++
		     if (v < 0 || v > bound) slow++
		     if (n == 1 || v < lo) lo = v; if (v > hi) hi = v }
		END { print n + 0, fast + 0, slow + 0, lo + 0, hi + 0 }' \
		/tmp/interactive-wake.res)
	ktap_diag "interactive sched_hint 0: wake: $1 trials, decided min/max $4/$5 us, $2 within a tick, $3 beyond $((RATE + 2 * TICK_US)) us"
	[ "$1" -ge $CONTROL_TRIALS -a "$2" = 0 -a "$3" = 0 ] ||
		sed 's/^/#   /' /tmp/interactive-wake.res
	ktap_bound "interactive sched_hint 0: wake is decided by a window, never within a tick, in each of $CONTROL_TRIALS trials" \
		[ "$1" -ge $CONTROL_TRIALS -a "$2" = 0 -a "$3" = 0 ]
else
	ktap_skip "interactive: wake" "governor interactive unavailable"
	ktap_skip "interactive sched_hint 0: wake" "governor interactive unavailable"
fi
if reset schedutil; then
	run schedutil wake $CONTROL_TRIALS
	judge schedutil wake $CONTROL_TRIALS $LAND_US
else
	ktap_skip "schedutil: wake" "governor schedutil unavailable"
fi

reset interactive
ktap_eq "interactive: trials leave the tunables at their defaults" \
	"$(cat $IA/timer_rate) $(cat $IA/min_sample_time) $(cat $IA/sched_hint)" "$RATE 20000 1"
set_governor "$old_gov"
ktap_done
