#!/bin/sh
# The kernel's own cpufreq selftests (tools/testing/selftests/cpufreq of the
# patched tree, copied unchanged to /kselftest/cpufreq), run by bash with
# the interactive governor selected and among the governors they cycle
# through (on the module variant the module is loaded first).
#
# main.sh prints what it does, counts nothing and exits 0 whatever
# happened, so the verdict of each run is taken from what it printed and
# what it left behind.  A run passes when main.sh exits 0 within its time,
# prints none of the error lines of ERRORS (the shell's own, and the
# scripts' "failed", "Warning:", "WARN:", "not available" prints), prints
# the lines that prove it did its work (counted, per case), adds no splat
# to the kernel log (the patterns of ci/check.py) and leaves every CPU
# online and the governor it is expected to leave.
#
# Cases: basic, sptest1..4, modtest -g cpufreq_interactive.ko (module
# variant only), suspend (suspend-to-idle on this board, woken by the RTC
# alarm) and hibernate (skipped when the kernel has no /sys/power/state
# entry for it: no CONFIG_HIBERNATION, the board has no swap to write to).  modtest is two cases: its insmod/rmmod
# part, and its governor part (select it, rmmod refused while in use),
# which needs module.sh's find_gov_name() to know cpufreq_interactive.ko
# and is skipped, saying so, while the tree's does not.  sptest3 runs
# "sudo tee": a sudo that just runs its command stands in (we are root).
#
# sptest3 (16000 "sudo tee" pipelines) and sptest4 (5000 hotplug cycles of
# each of cpu1-3 against 75000 scaling_min_freq writes) run pinned to cpu0
# by main.sh; on the emulated board they would take about 20 minutes and an
# hour.  They run for a budget (ks_budget=SECONDS on the kernel command
# line, default 60; 0 for none), then main.sh and every loop it started
# are stopped, and the run is judged on what it did by then: no error line,
# a clean log, at least a minimum of work done, every CPU able to come
# back online.  "make soak" is the long run of the same stresses.
. /lib/ktap.sh
. /lib/board.sh
. /lib/health.sh

KS=/kselftest/cpufreq
WORK=/tmp/kselftest-cpufreq
CASE_TIMEOUT=600	# basic, sptest1, sptest2, modtest must finish within it
BUDGET=60
BUDGET=$(cmdline ks_budget $BUDGET)
[ "$BUDGET" -gt 0 ] 2>/dev/null || BUDGET=100000
KS_WHY=
ERRORS='command not found|syntax error|unary operator|integer expression|too many arguments'
ERRORS="$ERRORS|bad substitution|No such file|Permission denied|write error|Invalid argument"
ERRORS="$ERRORS|Device or resource busy|Resource temporarily|Segmentation|Killed|can.t "
ERRORS="$ERRORS|failed|Warning:|WARN:|not available|not present|No cpu is managed|skip all"
ERRORS="$ERRORS|Invalid \[-f\]|Usage:"
# Not errors: the scripts cat every cpufreq file, the write-only
# stats/reset among them; modtest's rmmod of the governor in use must fail
# (it then prints "Pass: unable to remove").
IGNORE="/stats/reset': Permission denied"
IGNORE="$IGNORE|can't unload module 'cpufreq_interactive': Resource temporarily unavailable"

ktap_plan 9
kver=$(uname -r)
kmod=$(grep -o '^[^:]*/cpufreq_interactive\.ko' /lib/modules/$kver/modules.dep)
if [ ! -f $KS/main.sh ] || ! command -v bash >/dev/null; then
	ktap_diag "no $KS/main.sh or no bash in the image"
	for t in basic sptest1 sptest2 sptest3 sptest4 "modtest insmod/rmmod" \
		"modtest governor in use" suspend hibernate; do ktap_fail "$t"; done
	ktap_done
fi

rm -rf $WORK $WORK.bin
cp -r $KS $WORK
mkdir -p $WORK.bin
printf '#!/bin/sh\nexec "$@"\n' > $WORK.bin/sudo
chmod 755 $WORK.bin/sudo
old_gov=$(cat $POLICY/scaling_governor)

# prepare: the state every run starts from: all CPUs online, every policy
# (two on BOARD=2cluster) at its full range with interactive selected
# (and so, on the module variant, loaded).
prepare() {
	for c in $(online_cpus_except0); do set_online $c 1; done
	for p in $CPUFREQ/policy*; do
		wr $p/scaling_max_freq "$(cat $p/cpuinfo_max_freq)"
		wr $p/scaling_min_freq "$(cat $p/cpuinfo_min_freq)"
		wr $p/scaling_governor interactive
	done
}

# run_ks TAG SECONDS ARGS...: run main.sh ARGS in $WORK, in a session of
# its own, for at most SECONDS; then stop the session (main.sh and all it
# started) and set KS_STOPPED=1.  Output in /tmp/ks.TAG.out, exit status
# in KS_RC, the kernel log's splat count before it in KS_SPLATS.
run_ks() {
	tag=$1 limit=$2
	shift 2
	KS_SPLATS=$(splat_count)
	KS_STOPPED=0
	t0=$(uptime_cs)
	(cd $WORK && PATH=$WORK.bin:$PATH exec setsid bash ./main.sh \
		-o /tmp/ks.$tag "$@") > /tmp/ks.$tag.out 2>&1 &
	pid=$!
	while kill -0 $pid 2>/dev/null; do
		if [ $((($(uptime_cs) - t0) / 100)) -ge "$limit" ]; then
			KS_STOPPED=1
			kill -TERM -$pid
			break
		fi
		sleep 1
	done
	wait $pid 2>/dev/null
	KS_RC=$?
	# Whatever main.sh left running in its session goes too.
	n=0
	while kill -0 -$pid 2>/dev/null; do
		n=$((n + 1))
		[ $n -gt 30 ] && { KS_WHY="its processes outlived SIGKILL"; break; }
		[ $n -gt 5 ] && kill -KILL -$pid 2>/dev/null
		[ $KS_STOPPED = 1 ] || kill -TERM -$pid 2>/dev/null
		sleep 1
	done
	ktap_diag "main.sh $*: $([ $KS_STOPPED = 1 ] && echo "stopped after its budget" ||
		echo "exit $KS_RC") after $((($(uptime_cs) - t0) / 100)) s," \
		"$(wc -l < /tmp/ks.$tag.out) lines of output"
}

# judge NAME TAG GOV MIN:PATTERN...: the verdict on run TAG.  GOV is the
# governor the run must leave ("" for any); each MIN:PATTERN is a basic
# regex that must match at least MIN lines of the output.  KS_WHY, when
# set, is one more reason to fail.
judge() {
	name=$1 out=/tmp/ks.$2.out gov=$3
	shift 3
	why=$KS_WHY
	KS_WHY=
	if [ $KS_STOPPED = 1 ]; then
		[ "$KS_BUDGETED" = 1 ] ||
			why="$why; did not finish within $CASE_TIMEOUT s"
	else
		[ "$KS_RC" = 0 ] || why="$why; main.sh exited $KS_RC"
	fi
	KS_BUDGETED=0
	bad=$(grep -Ei "$ERRORS" $out | grep -Ev "$IGNORE" | sort | uniq -c |
		sort -rn | head -n 3)
	[ -z "$bad" ] || why="$why; error lines: $(echo $bad)"
	for m in "$@"; do
		got=$(grep -c -- "${m#*:}" $out)
		[ "$got" -ge "${m%%:*}" ] ||
			why="$why; '${m#*:}' printed $got times, want >= ${m%%:*}"
	done
	[ -z "$gov" ] || [ "$(cat $POLICY/scaling_governor)" = "$gov" ] ||
		why="$why; governor $(cat $POLICY/scaling_governor) after it, want $gov"
	# A run stopped mid-hotplug may leave a CPU offline: it must come back.
	if [ $KS_STOPPED = 1 ]; then
		for c in $(online_cpus_except0); do set_online $c 1; done
	fi
	[ "$(cat /sys/devices/system/cpu/online)" = "0-$((NCPUS - 1))" ] ||
		why="$why; CPUs online after it: $(cat /sys/devices/system/cpu/online)"
	n=$(splat_count)
	[ "$n" = "$KS_SPLATS" ] || why="$why; kernel log: $(splat_lines $KS_SPLATS | head -n 1)"
	log_wrapped && why="$why; the kernel log wrapped, cannot tell it stayed clean"
	if [ -n "$why" ]; then
		ktap_diag "$name: ${why#; }"
		ktap_diag "last lines of its output:"
		tail -n 5 $out | sed 's/^/#   /'
		ktap_fail "$name"
	else
		ktap_ok "$name"
	fi
}

nfreq=$(wc -w < $POLICY/scaling_available_frequencies)
ncpu1=$((NCPUS - 1))

# basic: reads and rewrites every cpufreq file (the interactive tunables
# among them), 5 hotplug rounds, every frequency with userspace, then every
# available governor, interactive included; restores interactive.
prepare
ktap_diag "governors: $(cat $POLICY/scaling_available_governors)"
run_ks basic $CASE_TIMEOUT -t basic
judge "basic (every governor, interactive included)" basic interactive \
	"1:Switched governor for policy0 to interactive" \
	"1:Writing .* to: hispeed_freq" "2:^go_hispeed_load:" \
	"$((5 * ncpu1)):^Offline cpu" "$((2 * nfreq)):Change frequency for policy0" \
	"1:Governor restored for policy0 to interactive"

# sptest1: interactive -> ondemand, read its files -> conservative.
prepare
run_ks sptest1 $CASE_TIMEOUT -t sptest1
judge "sptest1 (governor switch for lockdep)" sptest1 conservative \
	"1:Running simple_lockdep" "1:^95$"

# sptest2: the same 101 times, one task per policy.
prepare
run_ks sptest2 $CASE_TIMEOUT -t sptest2
judge "sptest2 (concurrent governor switches)" sptest2 conservative \
	"1:Running concurrent_lockdep" "101:^95$"

# sptest3: 8 x 1000 x (ondemand & userspace) written concurrently; tee
# echoes each name, so the counts tell how many writes ran.
prepare
run_ks sptest3 $BUDGET -t sptest3
want=8000
[ $KS_STOPPED = 1 ] && want=20 KS_BUDGETED=1
ktap_diag "sptest3: $(grep -c '^ondemand$' /tmp/ks.sptest3.out) ondemand and" \
	"$(grep -c '^userspace$' /tmp/ks.sptest3.out) userspace writes of 8000 each"
judge "sptest3 (governor race)" sptest3 "" \
	"1:Running governor_race" "$want:^ondemand$" "$want:^userspace$"

# sptest4: each of cpu1-3 offlined/onlined 5000 times while every
# frequency is written to scaling_min_freq 5000 times over (one CPU after
# the other: within a budget, cpu1).
prepare
min0=$(cat $POLICY/scaling_min_freq)
run_ks sptest4 $BUDGET -t sptest4
set --
if [ $KS_STOPPED = 1 ]; then
	KS_BUDGETED=1
	set -- "10:^Offline cpu1$"
else
	[ "$(cat $POLICY/scaling_min_freq)" = "$min0" ] ||
		KS_WHY="scaling_min_freq $(cat $POLICY/scaling_min_freq) after it, want $min0"
	for c in $(online_cpus_except0); do set -- "$@" "5000:^Offline cpu$c$"; done
fi
ktap_diag "sptest4: $(grep -c '^Offline cpu' /tmp/ks.sptest4.out) hotplug cycles of 15000"
judge "sptest4 (hotplug with cpufreq file updates)" sptest4 ondemand "$@"

# modtest -g: insmod/rmmod, then insmod, select the governor on every
# policy, rmmod must fail while in use, restore, rmmod.
if [ -z "$kmod" ]; then
	ktap_skip "modtest insmod/rmmod" "interactive is built in"
	ktap_skip "modtest governor in use" "interactive is built in"
else
	ln -sf /lib/modules/$kver/$kmod $WORK/cpufreq_interactive.ko
	prepare
	set_governor schedutil
	rmmod cpufreq_interactive_test 2>/dev/null
	rmmod cpufreq_interactive
	run_ks modtest $CASE_TIMEOUT -t modtest -g cpufreq_interactive.ko
	unloaded=0
	[ -d /sys/module/cpufreq_interactive ] || unloaded=1
	# The insmod/rmmod part, judged on its own prints.
	why=
	[ $KS_STOPPED = 0 ] || why="did not finish within $CASE_TIMEOUT s"
	[ $KS_STOPPED = 1 ] || [ "$KS_RC" = 0 ] || why="main.sh exited $KS_RC"
	grep -q "cpufreq_interactive.ko failed" /tmp/ks.modtest.out &&
		why="$why; $(grep -m1 'cpufreq_interactive.ko failed' /tmp/ks.modtest.out)"
	[ "$(grep -c 'Inserting cpufreq_interactive.ko module' /tmp/ks.modtest.out)" -ge 2 ] ||
		why="$why; did not insert the module twice"
	[ "$(grep -c 'Removing cpufreq_interactive.ko module' /tmp/ks.modtest.out)" -ge 2 ] ||
		why="$why; did not remove the module twice"
	[ $unloaded = 1 ] || why="$why; the module is still loaded after it"
	[ "$(splat_count)" = "$KS_SPLATS" ] || why="$why; kernel log: $(splat_lines $KS_SPLATS | head -n 1)"
	if [ -n "$why" ]; then
		ktap_diag "modtest: ${why#; }"
		ktap_fail "modtest insmod/rmmod"
	else
		ktap_ok "modtest insmod/rmmod"
	fi
	# module.sh's find_gov_name() gives a module's governor: by a list of
	# module file names in 6.1, from the file name with the series.
	# Without cpufreq_interactive.ko in the list it selects no governor.
	if grep -q -e cpufreq_interactive.ko -e 's/^cpufreq_//' $WORK/module.sh; then
		judge "modtest governor in use" modtest schedutil \
			"1:Switch from schedutil to interactive" \
			"1:Pass: unable to remove cpufreq_interactive.ko while it is being used" \
			"1:Governor restored for policy0 to schedutil"
	else
		ktap_skip "modtest governor in use" \
			"module.sh find_gov_name() does not map cpufreq_interactive.ko"
	fi
fi

# suspend, hibernate: only where the kernel offers them.  main.sh writes
# the state and waits for a wakeup: for suspend the RTC's alarm is armed
# 3 s ahead (main.sh starts in milliseconds), and the kernel must count
# one more successful suspend.
for s in suspend:mem hibernate:disk; do
	if grep -qw "${s#*:}" /sys/power/state 2>/dev/null; then
		prepare
		ok0=$(cat /sys/power/suspend_stats/success 2>/dev/null)
		[ ${s%:*} = suspend ] && wr $RTC/wakealarm 0 && wr $RTC/wakealarm +3
		run_ks ${s%:*} $CASE_TIMEOUT -t ${s%:*}
		wr $RTC/wakealarm 0
		[ ${s%:*} = suspend ] &&
			[ "$(cat /sys/power/suspend_stats/success)" != $((ok0 + 1)) ] &&
			KS_WHY="suspend_stats/success $ok0 -> $(cat /sys/power/suspend_stats/success), want one more"
		judge "${s%:*}" ${s%:*} interactive "1:Came out of ${s%:*}" \
			"1:Do basic tests after finishing ${s%:*}" "1:^Offline cpu"
	else
		ktap_skip "${s%:*}" "no '${s#*:}' in /sys/power/state (no CONFIG_SUSPEND/HIBERNATION)"
	fi
done

prepare
set_governor "$old_gov"
ktap_done
