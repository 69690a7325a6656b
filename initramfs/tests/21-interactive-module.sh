#!/bin/sh
# The governor as a module: loaded by selecting it, refused unload while a
# policy uses it, 50 load/use/unload cycles, then 5 s of mixed idle and
# load with it loaded, and boost pulses written while the governor is
# switched away and the module unloaded and reloaded (the unboost work
# reads the tunables that exit frees).  Skipped when the governor is built
# in.
. /lib/ktap.sh
. /lib/board.sh

ktap_plan 6
if ! grep -q "cpufreq_interactive.ko:" /lib/modules/$(uname -r)/modules.dep; then
	for t in "auto-load" "busy module not unloadable" "50 cycles" "no residue" \
		"mixed load" "boostpulse racing unload"; do
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

# cycles N [MAX_PAUSE_US]: N switch-away / unload / reload / select
# cycles, each followed by a random pause below MAX_PAUSE_US (default
# none); prints the number of steps that failed.
cycles() {
	_i=0
	_fail=0
	while [ $_i -lt "$1" ]; do
		set_governor performance || _fail=$((_fail + 1))
		rmmod cpufreq_interactive || _fail=$((_fail + 1))
		modprobe cpufreq_interactive || _fail=$((_fail + 1))
		set_governor interactive || _fail=$((_fail + 1))
		[ -n "$2" ] && usleep $((RANDOM % $2))
		_i=$((_i + 1))
	done
	echo $_fail
}

ktap_eq "50 load/select/unload cycles" "$(cycles 50)" 0
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

# Boost pulses of 2 ms, written as fast as the shell can, against 30
# switch-away / unload / reload / select cycles.  The kernel log (scanned
# by the host, KASAN on the debug kernel) must stay clean.
(
	while [ ! -e /tmp/race.stop ]; do
		echo 2000 > $CPUFREQ/interactive/boostpulse_duration 2>/dev/null
		echo 1 > $CPUFREQ/interactive/boostpulse 2>/dev/null
	done
) &
racer=$!
fail=$(cycles 30 20000)
touch /tmp/race.stop
wait $racer
rm -f /tmp/race.stop
ktap_eq "30 unload/reload cycles with boost pulses written throughout" "$fail" 0
set_governor "$old"
ktap_done
