#!/bin/sh
# A scheduler idle notifier listener (idle_listener.ko) across CPU
# hotplug: START and END stay strictly alternating on every CPU while
# cpu1-3 go offline and come back, and each balances after its return.
# The CPU activity LED of an offline CPU is dark in every cycle: the END
# a dying CPU sends must not light it again.
. /lib/ktap.sh
. /lib/board.sh

S=/sys/kernel/debug/idle_listener/stats
CYCLES=20
ktap_plan $((3 + 2 * (NCPUS - 1) + 1))

ktap_check "idle_listener.ko loads" modprobe idle_listener
i=0
fail=0
lit=""
while [ $i -lt $CYCLES ]; do
	for c in $(online_cpus_except0); do set_online $c 0 || fail=1; done
	sleep 0.1
	for c in $(online_cpus_except0); do
		read -r b < "$(led_of_cpu $c)/brightness"
		[ "$b" = 0 ] || lit="$lit cycle$i:cpu$c=$b"
	done
	for c in $(online_cpus_except0); do set_online $c 1 || fail=1; done
	sleep 0.1
	i=$((i + 1))
done
sleep 0.5
ktap_eq "$CYCLES offline/online cycles of cpu1-$((NCPUS - 1))" "$fail" 0
ktap_eq "an offline CPU's LED is dark in every cycle" "$lit" ""
for c in $(online_cpus_except0); do
	set -- $(awk -v c=$c '$1 == c' $S)
	ktap_diag "cpu$c: $2 START, $3 END, $4 out of order, in idle: $5"
	ktap_eq "cpu$c saw START and END alternate" "$4" 0
	d=$(($2 - $3 - $5))
	ktap_check "cpu$c START/END balanced after hotplug" [ "$d" -ge -1 -a "$d" -le 0 ]
done
ktap_check "idle_listener.ko unloads" rmmod idle_listener
ktap_done
