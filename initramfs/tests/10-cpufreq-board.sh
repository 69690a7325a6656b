#!/bin/sh
# The board's cpufreq: cpufreq-dt bound to one policy for CPUs 0-3 with the
# device tree's operating points, and every OPP really set on the emulated
# oscillator (cpuinfo_cur_freq reads the clock back).
. /lib/ktap.sh
. /lib/board.sh

OPPS="200000 400000 600000 800000 1000000"
ktap_plan 12

ktap_check "cpufreq-dt bound to policy0" [ "$(cat $POLICY/scaling_driver 2>/dev/null)" = cpufreq-dt ]
n=$(ls -d $CPUFREQ/policy* 2>/dev/null | wc -l)
ktap_eq "exactly one policy" "$n" 1
ktap_eq "related_cpus are 0-3" "$(cat $POLICY/related_cpus)" "0 1 2 3"
ktap_eq "the DT's frequencies are listed" \
	"$(cat $POLICY/scaling_available_frequencies | xargs)" "$OPPS"
ktap_eq "cpuinfo_min_freq" "$(cat $POLICY/cpuinfo_min_freq)" 200000
ktap_eq "cpuinfo_max_freq" "$(cat $POLICY/cpuinfo_max_freq)" 1000000

old=$(cat $POLICY/scaling_governor)
set_governor userspace
bad=""
for f in $OPPS; do
	wr $POLICY/scaling_setspeed $f
	got=$(cat $POLICY/cpuinfo_cur_freq)
	ktap_diag "set $f kHz: oscillator reads $got kHz"
	[ "$got" = "$f" ] || bad="$bad $f->$got"
done
ktap_eq "every OPP set by userspace reads back from the oscillator" "$bad" ""

# Out-of-table requests: userspace asks for CPUFREQ_RELATION_L, the lowest
# table frequency at or above the request, within the policy limits.
wr $POLICY/scaling_setspeed 500000
ktap_eq "500 MHz rounds up to 600 MHz" "$(cat $POLICY/cpuinfo_cur_freq)" 600000
wr $POLICY/scaling_setspeed 100000
ktap_eq "100 MHz rounds up to the minimum" "$(cat $POLICY/cpuinfo_cur_freq)" 200000
wr $POLICY/scaling_setspeed 1500000
ktap_eq "1500 MHz is clamped to the maximum" "$(cat $POLICY/cpuinfo_cur_freq)" 1000000

# The stats see the transitions.
trans=$(cat $POLICY/stats/total_trans 2>/dev/null || echo 0)
ktap_check "cpufreq stats count transitions ($trans)" [ "$trans" -gt 0 ]

set_governor "$old"
ktap_eq "governor restored" "$(cat $POLICY/scaling_governor)" "$old"
ktap_done
