#!/bin/sh
# The soak (mode=soak, "make soak"): for soak_duration=SECONDS (default 180)
# these run at once, each a background loop that counts what it did:
#   gov      random governor switches, interactive among them
#   tun      random interactive tunable writes (valid ones, and invalid
#            ones that must be refused)
#   hotplug  cpu1-3 offline and online again, in random order
#   module   rmmod cpufreq_interactive (refused while a policy uses it)
#            and modprobe it again (module variant)
#   load0/1  bursts on a random CPU (burn), then idle for up to a second
#   suspend  suspend-to-idle, woken by the RTC a second later, every 0-2 s
#            (a suspend that a wakeup event or a task that will not
#            freeze aborts with EBUSY is counted apart, not a failure)
# Then they must stop within 60 s (one stuck in the kernel fails the soak,
# and sysrq-w puts the blocked tasks in the log), every CPU comes online,
# interactive is selected with its defaults, and it must still ramp to hispeed_freq on a burst; the kernel
# log must have no new splat (and kmemleak, when the kernel has it, no
# suspect).  Prints KTAP between "### SOAK BEGIN" and "### SOAK END", the
# counts as "# soak: ..." lines, then the kernel log for the host's scan.
# soak_seed=N seeds the loops' $RANDOM (the interleaving stays timing's).
# soak_autoload=0 keeps "echo interactive > scaling_governor" from loading
# the module: the gov and module loops take turns (a mkdir lock), so the
# module is always loaded when gov selects it.  Stock 6.1 deadlocked when
# that load (request_module() under policy->rwsem) met a CPU going offline
# (the series' patch 5 fixes it); the default (1) keeps that path in the
# soak.
. /lib/ktap.sh
. /lib/board.sh
. /lib/health.sh

IA=$CPUFREQ/interactive
KL=/sys/kernel/debug/kmemleak
DURATION=180
SEED=4242
AUTOLOAD=1
DURATION=$(cmdline soak_duration $DURATION)
SEED=$(cmdline soak_seed $SEED)
AUTOLOAD=$(cmdline soak_autoload $AUTOLOAD)
S=/tmp/soak
rm -rf $S
mkdir -p $S
modular=0
grep -q "cpufreq_interactive.ko:" /lib/modules/$(uname -r)/modules.dep && modular=1

running() { [ ! -e $S/stop ]; }
# modlock/modunlock: the turn-taking of soak_autoload=0.
modlock() {
	[ $AUTOLOAD = 1 ] && return 0
	until mkdir $S/modlock 2>/dev/null; do sleep 0.01; done
}
modunlock() {
	[ $AUTOLOAD = 1 ] || rmdir $S/modlock
}
# pick WORD...: one of the words, at random, into PICK (no subshell, so
# that $RANDOM moves on).
pick() {
	shift $((RANDOM % $#))
	PICK=$1
}
# pause: up to 90 ms.
pause() { sleep 0.0$((RANDOM % 10)); }

loop_gov() {
	RANDOM=$((SEED + 1))
	n=0 f=0
	while running; do
		# interactive half of the time, so that the tunable writes
		# meet it live as often as it comes and goes
		pick $govs
		g=$PICK
		[ $((RANDOM % 2)) = 0 ] && g=interactive
		[ $g = interactive ] && modlock
		if wr $POLICY/scaling_governor $g; then
			n=$((n + 1))
		else
			f=$((f + 1))
			echo "$g" >> $S/gov.refused
		fi
		[ $g = interactive ] && modunlock
		echo "$n $f" > $S/gov
		pause
	done
}

loop_tun() {
	RANDOM=$((SEED + 2))
	n=0 r=0 wrong=0 away=0
	while running; do
		if [ ! -d $IA ]; then
			away=$((away + 1))	# governor not selected: wait for it
			echo "$n $r $wrong $away" > $S/tun
			pause
			continue
		fi
		bad=0
		case $((RANDOM % 5)) in
		0) f=hispeed_freq; pick $freqs; v=$PICK ;;
		1) f=go_hispeed_load v=$((RANDOM % 100 + 1)) ;;
		2) f=min_sample_time v=$((RANDOM % 200000)) ;;
		3) f=timer_rate v=$((10000 + RANDOM % 90000)) ;;
		*)	# invalid for every tunable, or just outside its
			# bounds (lib/tunables.tab)
			pick hispeed_freq go_hispeed_load min_sample_time timer_rate
			f=$PICK bad=1
			rule=$(tunable_rule $f)
			lo=${rule#*:} hi=${rule##*:}
			pick -1 abc 0x10 99999999999 "" +-5 "5 5" 4294967296 \
				$((${lo%%:*} - 1)) $((hi + 1))
			v=$PICK ;;
		esac
		if wr $IA/$f "$v"; then
			n=$((n + 1))
			# A write of an invalid value must never be accepted.
			[ $bad = 1 ] && wrong=$((wrong + 1)) && echo "$f '$v'" >> $S/tun.wrong
		else
			r=$((r + 1))
		fi
		echo "$n $r $wrong $away" > $S/tun
		pause
	done
}

# hp CPU 0|1: take CPU offline or online.  Returns 2 when the kernel
# refused for a system suspend in progress (cpu_hotplug_disable() from
# PM_SUSPEND_PREPARE to PM_POST_SUSPEND: EBUSY), 1 on any other error
# (kept in $S/hotplug.errors).
hp() {
	_e=$(echo "$2" 2>&1 > /sys/devices/system/cpu/cpu$1/online) && return 0
	case "$_e" in *busy*) return 2 ;; esac
	echo "cpu$1 online=$2: $_e" >> $S/hotplug.errors
	return 1
}

loop_hotplug() {
	RANDOM=$((SEED + 3))
	n=0 f=0 busy=0
	while running; do
		c=$((RANDOM % (NCPUS - 1) + 1))
		hp $c 0
		case $? in
		0)
			pause
			# Online again, whatever it takes: a suspend refuses
			# for a second or two.
			while :; do
				hp $c 1
				case $? in
				0) n=$((n + 1)); break ;;
				1) f=$((f + 1)); break ;;
				esac
				busy=$((busy + 1))
				sleep 0.2
			done ;;
		1) f=$((f + 1)) ;;
		2) busy=$((busy + 1)) ;;
		esac
		echo "$n $f $busy" > $S/hotplug
		pause
	done
}

loop_module() {
	RANDOM=$((SEED + 4))
	n=0 busy=0 f=0
	while running; do
		modlock
		if rmmod cpufreq_interactive 2> $S/rmmod.err; then
			pause
			if modprobe cpufreq_interactive; then n=$((n + 1)); else f=$((f + 1)); fi
		elif grep -Eq 'temporarily unavailable|busy|No such file|not found' $S/rmmod.err; then
			# In use by a policy (EAGAIN), loading or going (EBUSY), or
			# already gone because nothing loaded it again yet.
			busy=$((busy + 1))
		else
			f=$((f + 1))
			cat $S/rmmod.err >> $S/module.errors
		fi
		modunlock
		echo "$n $busy $f" > $S/module
		sleep 0.$((RANDOM % 3))
	done
}

loop_load() {
	RANDOM=$((SEED + 5 + $1))
	n=0 off=0
	while running; do
		if burn -c $((RANDOM % NCPUS)) -t $((10 + RANDOM % 400)) -n soak 2>/dev/null; then
			n=$((n + 1))
		else
			off=$((off + 1))	# the CPU was offline
		fi
		echo "$n $off" > $S/load$1
		sleep 0.$((RANDOM % 10))
	done
}

loop_suspend() {
	RANDOM=$((SEED + 7))
	n=0 abort=0 f=0
	while running; do
		if suspend_rtc 1; then
			n=$((n + 1))
		else
			case "$SUSPEND_ERR" in
			*busy* | *"in progress"*) abort=$((abort + 1)) ;;
			*) f=$((f + 1)); echo "$SUSPEND_ERR" >> $S/suspend.errors ;;
			esac
		fi
		echo "$n $abort $f" > $S/suspend
		sleep $((RANDOM % 3))
	done
}

# counts NAME: the counters loop NAME wrote last ("0 ..." before it ran;
# read again when caught between the loop's truncate and write).
counts() {
	for _ in 1 2 3 4 5; do
		c=$(cat $S/$1 2>/dev/null)
		[ -n "$c" ] && break
		sleep 0.01
	done
	echo "${c:-0 0 0 0}"
}
progress() {
	n=$(splat_count)
	[ "$n" -gt "$seen" ] && splat_lines "$seen" | sed 's/^/# new in the log: /'
	seen=$n
	echo "# soak t=$1s: switches $(counts gov | cut -d' ' -f1)," \
		"tunable writes $(counts tun | cut -d' ' -f1)," \
		"hotplug cycles $(counts hotplug | cut -d' ' -f1)," \
		"module cycles $(counts module | cut -d' ' -f1)," \
		"bursts $(( $(counts load0 | cut -d' ' -f1) + $(counts load1 | cut -d' ' -f1) ))," \
		"suspends $(counts suspend | cut -d' ' -f1)," \
		"splats $(($(splat_count) - splats0))"
}

echo "### SOAK BEGIN"
ktap_plan 11
ktap_diag "soak: $DURATION s, seed $SEED, module variant: $modular, autoload: $AUTOLOAD"
set_governor interactive
govs=$(cat $POLICY/scaling_available_governors)
freqs=$(cat $POLICY/scaling_available_frequencies)
ktap_diag "governors: $govs"
splats0=$(splat_count)
seen=$splats0
[ -e $KL ] && echo clear > $KL

loop_gov &
pids=$!
loop_tun &
pids="$pids $!"
loop_hotplug &
pids="$pids $!"
if [ $modular = 1 ]; then
	loop_module &
	pids="$pids $!"
fi
loop_load 0 &
pids="$pids $!"
loop_load 1 &
pids="$pids $!"
suspend_ok=0
grep -qw freeze /sys/power/state 2>/dev/null && [ -e $RTC/wakealarm ] && suspend_ok=1
if [ $suspend_ok = 1 ]; then
	loop_suspend &
	pids="$pids $!"
fi
t=0
while [ $t -lt "$DURATION" ]; do
	step=$((DURATION - t < 30 ? DURATION - t : 30))
	sleep $step
	t=$((t + step))
	progress $t
done
touch $S/stop
# Each loop ends its round and stops; one that does not within 60 s is
# stuck in the kernel: show where (the blocked tasks go to the log).
n=0
while [ $n -lt 60 ]; do
	alive=
	for p in $pids; do kill -0 $p 2>/dev/null && alive="$alive $p"; done
	[ -z "$alive" ] && break
	sleep 1
	n=$((n + 1))
done
if [ -n "$alive" ]; then
	for p in $alive; do
		for t in /proc/[0-9]*; do
			[ "$(cut -d' ' -f4 $t/stat 2>/dev/null)" = "$p" ] || [ "${t#/proc/}" = "$p" ] || continue
			echo "# stuck: ${t#/proc/} $(cat $t/comm) state $(cut -d' ' -f3 $t/stat) wchan $(cat $t/wchan)"
			sed 's/^/#   /' $t/stack 2>/dev/null
		done
	done
	echo w > /proc/sysrq-trigger
fi
ktap_check "the stressors stop when told (none stuck in the kernel)" [ -z "$alive" ]
if [ -n "$alive" ]; then
	# Hotplug or a governor switch could block too: report, keep the log.
	while [ $KTAP_N -lt $KTAP_PLANNED ]; do ktap_fail "not run: stressors stuck"; done
	progress "$DURATION"
	echo "### SOAK END"
	echo "### DMESG BEGIN"
	dmesg
	echo "### DMESG END"
	exit 1
fi

set -- $(counts gov)
ktap_diag "governor switches: $1 done, $2 refused ($(sort $S/gov.refused 2>/dev/null | uniq -c | tr '\n' ' '))"
# A listed governor is refused only while its module is on its way out.
refused_other=$(grep -vxc interactive $S/gov.refused 2>/dev/null)
ktap_check "governor switches ($1), none refused but interactive mid-unload" \
	[ "$1" -gt 0 -a "${refused_other:-0}" = 0 ]
set -- $(counts tun)
ktap_diag "tunable writes: $1 accepted, $2 refused (invalid, or the governor went away)," \
	"$3 invalid accepted; $4 times the governor was not there"
[ -s $S/tun.wrong ] && sed 's/^/# accepted: /' $S/tun.wrong | head -n 5
ktap_check "tunable writes ($1), no invalid value accepted" [ "$1" -gt 0 -a "$3" = 0 ]
set -- $(counts hotplug)
ktap_diag "hotplug: $1 offline/online cycles, $2 failed, ${3:-0} refused (EBUSY) during a suspend"
[ ! -s $S/hotplug.errors ] || sed 's/^/# hotplug error: /' $S/hotplug.errors | head -5
ktap_check "hotplug cycles of cpu1-$((NCPUS - 1)) ($1), none failed (EBUSY only while a suspend runs)" \
	[ "$1" -gt 0 -a "$2" = 0 -a \( "${3:-0}" = 0 -o $suspend_ok = 1 \) ]
if [ $modular = 1 ]; then
	set -- $(counts module)
	ktap_diag "module: $1 unload/reload cycles, $2 refused (in use), $3 failed"
	[ -s $S/module.errors ] && sed 's/^/# /' $S/module.errors | head -n 5
	ktap_check "module unload/reload cycles ($1), none failed" [ "$1" -gt 0 -a "$3" = 0 ]
else
	ktap_skip "module unload/reload cycles" "interactive is built in"
fi
if [ $suspend_ok = 1 ]; then
	set -- $(counts suspend)
	ktap_diag "suspend: $1 suspend/resume cycles, $2 aborted (wakeup event, task not frozen), $3 failed"
	[ -s $S/suspend.errors ] && sort $S/suspend.errors | uniq -c | sed 's/^/# /' | head -n 5
	ktap_check "suspend-to-idle cycles ($1), none failed" [ "$1" -gt 0 -a "$3" = 0 ]
else
	ktap_skip "suspend-to-idle cycles" "no suspend-to-idle or no RTC"
fi
b0=$(counts load0 | cut -d' ' -f1)
b1=$(counts load1 | cut -d' ' -f1)
ktap_check "bursts and idle ($((b0 + b1)) bursts)" [ $((b0 + b1)) -gt 0 ]

# Back to the normal state, and the governor must still work.
fail=0
for c in $(online_cpus_except0); do set_online $c 1 || fail=1; done
ktap_check "every CPU comes online again" [ $fail = 0 -a "$(cat /sys/devices/system/cpu/online)" = "0-$((NCPUS - 1))" ]
set_governor interactive
wr $IA/hispeed_freq "$(cat $POLICY/cpuinfo_max_freq)"
wr $IA/go_hispeed_load 95
wr $IA/min_sample_time 20000
wr $IA/timer_rate 20000
ktap_ramps "after the soak" "interactive still ramps to hispeed_freq on a burst"
n=$(splat_count)
[ "$n" = "$splats0" ] || splat_lines "$splats0" | sed 's/^/# /'
wrapped=0
log_wrapped && wrapped=1 && ktap_diag "the kernel log wrapped: its start is lost"
ktap_check "no new warning, oops or lockdep report in the kernel log" \
	[ "$n" = "$splats0" -a $wrapped = 0 ]
if [ -e $KL ]; then
	sleep 6
	echo scan > $KL
	echo scan > $KL
	leaks=$(grep -c '^unreferenced object' $KL)
	[ "$leaks" = 0 ] || head -n 40 $KL | sed 's/^/# /'
	ktap_eq "no kmemleak suspect" "$leaks" 0
else
	ktap_skip "no kmemleak suspect" "kernel without CONFIG_DEBUG_KMEMLEAK"
fi
progress "$DURATION"
echo "### SOAK END"
echo "### DMESG BEGIN"
dmesg
echo "### DMESG END"
[ "$KTAP_FAILED" = 0 ] && [ "$KTAP_N" = "$KTAP_PLANNED" ]
