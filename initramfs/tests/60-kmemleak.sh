#!/bin/sh
# No leak from the series (debug kernel, CONFIG_DEBUG_KMEMLEAK): forget
# what the boot left, then load and unload the governor module and the
# idle listener module, switch governors and hotplug CPUs under the
# interactive governor, let kmemleak scan, and expect no new suspect.
# Skipped on kernels without kmemleak.
. /lib/ktap.sh
. /lib/board.sh

KL=/sys/kernel/debug/kmemleak
ktap_plan 2
if [ ! -e $KL ]; then
	ktap_skip "no new kmemleak suspect" "kernel without CONFIG_DEBUG_KMEMLEAK"
	ktap_skip "kmemleak report empty" "kernel without CONFIG_DEBUG_KMEMLEAK"
	ktap_done
fi

old=$(cat $POLICY/scaling_governor)
echo clear > $KL
modular=0
grep -q "cpufreq_interactive.ko:" /lib/modules/$(uname -r)/modules.dep && modular=1
i=0
while [ $i -lt 20 ]; do
	set_governor interactive
	burn -c $((i % NCPUS)) -t 50 -n leak
	set_governor ondemand
	set_governor schedutil
	[ $modular = 1 ] && rmmod cpufreq_interactive
	modprobe idle_listener && rmmod idle_listener
	i=$((i + 1))
done
set_governor interactive
for c in $(online_cpus_except0); do
	set_online "$c" 0
	set_online "$c" 1
done
set_governor "$old"
[ $modular = 1 ] && [ "$old" != interactive ] && rmmod cpufreq_interactive

# kmemleak reports an object only once it is 5 s old; scan twice, as its
# documentation advises, to rule out pointers in flight.
sleep 6
echo scan > $KL
echo scan > $KL
cat $KL > /tmp/kmemleak.txt
n=$(grep -c '^unreferenced object' /tmp/kmemleak.txt)
ktap_eq "no new kmemleak suspect after the loops" "$n" 0
if [ "$n" != 0 ]; then
	head -40 /tmp/kmemleak.txt | sed 's/^/# /'
fi
ktap_check "kmemleak report empty" [ ! -s /tmp/kmemleak.txt ]
ktap_done
