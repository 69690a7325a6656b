#!/bin/sh
# The governor as a module: loaded by selecting it, refused unload while a
# policy uses it, 50 load/use/unload cycles, then 5 s of mixed idle and
# load with it loaded.  Skipped when the governor is built in.
. /lib/ktap.sh
. /lib/board.sh

ktap_plan 5
if ! grep -q "cpufreq_interactive.ko:" /lib/modules/$(uname -r)/modules.dep; then
	for t in "auto-load" "busy module not unloadable" "50 cycles" "no residue" "mixed load"; do
		ktap_skip "$t" "interactive is built in"
	done
	ktap_done
fi

old=$(cat $POLICY/scaling_governor)
set_governor performance
rmmod cpufreq_interactive 2>/dev/null
set_governor interactive
ktap_check "echo interactive > scaling_governor loads the module" [ -d /sys/module/cpufreq_interactive ]
ktap_fails "the module cannot go while a policy uses it" rmmod cpufreq_interactive 2>/dev/null

i=0
fail=0
while [ $i -lt 50 ]; do
	set_governor performance || fail=$((fail + 1))
	rmmod cpufreq_interactive || fail=$((fail + 1))
	modprobe cpufreq_interactive || fail=$((fail + 1))
	set_governor interactive || fail=$((fail + 1))
	i=$((i + 1))
done
ktap_eq "50 load/select/unload cycles" "$fail" 0
set_governor performance
rmmod cpufreq_interactive
ktap_check "nothing left after unload" [ ! -d /sys/module/cpufreq_interactive -a ! -d $CPUFREQ/interactive ]

set_governor interactive
i=0
while [ $i -lt 5 ]; do
	burn -c $((i % NCPUS)) -t 500 -n mixed
	sleep 0.5
	i=$((i + 1))
done
ktap_eq "5 s of mixed idle and load with the module" "$(cat $POLICY/scaling_governor)" interactive
set_governor "$old"
ktap_done
