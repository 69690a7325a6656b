#!/bin/sh
# A scheduler idle notifier listener (idle_listener.ko) across CPU
# hotplug: START and END stay strictly alternating on every CPU while
# cpu1-3 go offline and come back, and each balances after its return.
. /lib/ktap.sh
. /lib/board.sh

S=/sys/kernel/debug/idle_listener/stats
ktap_plan $((2 + 2 * (NCPUS - 1) + 1))

ktap_check "idle_listener.ko loads" modprobe idle_listener
i=0
fail=0
while [ $i -lt 10 ]; do
	for c in $(online_cpus_except0); do set_online $c 0 || fail=1; done
	sleep 0.1
	for c in $(online_cpus_except0); do set_online $c 1 || fail=1; done
	sleep 0.1
	i=$((i + 1))
done
sleep 0.5
ktap_eq "10 offline/online cycles of cpu1-$((NCPUS - 1))" "$fail" 0
for c in $(online_cpus_except0); do
	set -- $(awk -v c=$c '$1 == c' $S)
	ktap_diag "cpu$c: $2 START, $3 END, $4 out of order, in idle: $5"
	ktap_eq "cpu$c saw START and END alternate" "$4" 0
	d=$(($2 - $3 - $5))
	ktap_check "cpu$c START/END balanced after hotplug" [ "$d" -ge -1 -a "$d" -le 0 ]
done
ktap_check "idle_listener.ko unloads" rmmod idle_listener
ktap_done
