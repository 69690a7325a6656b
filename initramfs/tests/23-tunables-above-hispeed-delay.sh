#!/bin/sh
# above_hispeed_delay: how long a CPU at hispeed_freq waits before it is
# raised further.  (One of the 23-tunables-* tests: make check
# TESTS=tunables-above-hispeed-delay runs it alone.)
. /lib/ktap.sh
. /lib/board.sh

tunables_test_begin 2

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

tunables_test_end
