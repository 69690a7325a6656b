# Health checks shared by the reliability tests and the soak (busybox sh):
# is the kernel log still clean, and does the interactive governor still
# ramp on a burst.  Needs /lib/board.sh (and /lib/ktap.sh for ktap_ramps).
#
#   . /lib/board.sh; . /lib/health.sh
#   n0=$(splat_count)  ...  [ "$(splat_count)" = "$n0" ]
#   ramps_on_burst 1 && echo "ramped to $RAMP_FREQ kHz"

# The patterns ci/check.py's SPLATS calls unclean, as one extended regex
# (ci/initramfs.sh writes them to /lib/splat.re).
SPLAT_RE=$(cat /lib/splat.re)

# splat_count: how many lines of the kernel log match SPLAT_RE.
splat_count() {
	dmesg | grep -Ec "$SPLAT_RE"
}

# splat_lines N: the splat lines after the first N (to show what is new).
splat_lines() {
	dmesg | grep -E "$SPLAT_RE" | tail -n +$(($1 + 1)) | head -n 5
}

# log_wrapped: true when the kernel log no longer starts at boot, so a
# scan of it cannot see everything.
log_wrapped() {
	! dmesg | head -n 1 | grep -q '^\[ *0\.000000\]'
}

# ramps_on_burst CPU: with the interactive governor selected, wait up to
# 10 s for the policy's minimum, keep CPU busy for up to 2 s and watch the
# speed: true when it reaches hispeed_freq.  RAMP_FREQ is the highest speed
# seen; RAMP_AT_MIN is 0 when the policy never came down to the minimum
# (then RAMP_FREQ is the speed it stayed at, and no burst was run).
ramps_on_burst() {
	RAMP_AT_MIN=1
	hs=$(cat $CPUFREQ/interactive/hispeed_freq) || return 1
	if ! wait_min 100; then
		RAMP_AT_MIN=0
		RAMP_FREQ=$(cur_freq)
		return 1
	fi
	burn -c "$1" -t 2000 -n ramp_check &
	bpid=$!
	RAMP_FREQ=0
	while kill -0 $bpid 2>/dev/null; do
		read -r f < $POLICY/scaling_cur_freq
		[ "$f" -gt "$RAMP_FREQ" ] && RAMP_FREQ=$f
		[ "$f" -ge "$hs" ] && break
		sleep 0.02
	done
	kill $bpid 2>/dev/null
	wait $bpid 2>/dev/null
	[ "$RAMP_FREQ" -ge "$hs" ]
}

# ktap_ramps WHEN NAME: report case NAME with ramps_on_burst 1 (WHEN says
# after what, for the diagnostic).  A policy that never idles down to its
# minimum cannot show a ramp from it: that is load, a bound (ktap_bound:
# TODO on a debug kernel, whose own overhead is that load), not a governor
# that fails to ramp, which always fails the case.
ktap_ramps() {
	if ramps_on_burst 1; then
		ktap_diag "burst on cpu1 $1: up to $RAMP_FREQ kHz"
		ktap_ok "$2"
	elif [ "$RAMP_AT_MIN" = 0 ]; then
		ktap_diag "burst on cpu1 $1: not run, the policy stayed at $RAMP_FREQ kHz for 10 s, not at the minimum"
		ktap_bound "$2" false
	else
		ktap_diag "burst on cpu1 $1: only up to $RAMP_FREQ kHz"
		ktap_fail "$2"
	fi
}
