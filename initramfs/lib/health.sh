# Health checks shared by the reliability tests and the soak (busybox sh):
# is the kernel log still clean, and does the interactive governor still
# ramp on a burst.  Needs /lib/board.sh.
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

# ramps_on_burst CPU: with the interactive governor selected, wait for the
# policy's minimum, keep CPU busy for up to 2 s and watch the speed:
# true when it reaches hispeed_freq.  RAMP_FREQ is the highest speed seen.
ramps_on_burst() {
	hs=$(cat $CPUFREQ/interactive/hispeed_freq) || return 1
	wait_min 50 || { RAMP_FREQ=$(cur_freq); return 1; }
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
