# Helpers shared by the in-guest tests and the demo (busybox sh).

CPUFREQ=/sys/devices/system/cpu/cpufreq
POLICY=$CPUFREQ/policy0
TRACING=/sys/kernel/tracing
NCPUS=$(grep -c '^processor' /proc/cpuinfo)

# led_of_cpu N: sysfs directory of the LED whose trigger is cpuN.
led_of_cpu() {
	for l in /sys/class/leds/*; do
		grep -q "\[cpu$1\]" "$l/trigger" 2>/dev/null && { echo "$l"; return 0; }
	done
	return 1
}

# wr FILE VALUE: write VALUE to FILE; exit status tells if the write was
# accepted (busybox echo reports the write error).
wr() {
	echo "$2" > "$1" 2>/dev/null
}

set_governor() {
	wr $POLICY/scaling_governor "$1"
}

cur_freq() {
	cat $POLICY/scaling_cur_freq
}

# Reset ftrace: empty buffer, no events, given buffer size (KiB per CPU).
trace_reset() {
	echo 0 > $TRACING/tracing_on
	echo > $TRACING/set_event
	echo > $TRACING/trace
	echo "${1:-1024}" > $TRACING/buffer_size_kb
}

trace_event() {
	echo 1 > "$TRACING/events/$1/enable"
}

online_cpus_except0() {
	i=1
	while [ $i -lt "$NCPUS" ]; do echo $i; i=$((i + 1)); done
}

set_online() {
	wr /sys/devices/system/cpu/cpu$1/online "$2"
}

# Wait up to $2 deciseconds for the file $1 to read $3.
wait_for() {
	n=0
	while [ "$(cat "$1" 2>/dev/null)" != "$3" ]; do
		n=$((n + 1))
		[ $n -gt "$2" ] && return 1
		sleep 0.1
	done
	return 0
}

# led_phase NAME [CPU]: tell the host which LED phase starts now.  Written
# straight to the console, so the host (boot/qemu.py) sees it at once.
led_phase() {
	echo "#LED phase=$1${2:+ cpu=$2}" > /dev/console
}

# uptime_cs: time since boot in centiseconds.
uptime_cs() {
	t=$(cut -d' ' -f1 /proc/uptime)
	echo $((${t%.*} * 100 + 1${t#*.} - 100))
}

# trace_lines: the trace buffer as "SECONDS EVENT: DETAILS" lines.
trace_lines() {
	awk 'match($0, /[0-9]+\.[0-9]+: /) {
		ts = substr($0, RSTART, RLENGTH - 2)
		print ts, substr($0, RSTART + RLENGTH) }' $TRACING/trace
}

# wait_min DS: wait up to DS deciseconds for the policy to reach its minimum.
wait_min() {
	wait_for $POLICY/scaling_cur_freq "$1" "$(cat $POLICY/scaling_min_freq)"
}

# settle_min DS: after a disturbance (switching trace events patches kernel
# text with stop_machine on every CPU, which a governor sees as load), give
# the governor time to react to it, then wait up to DS deciseconds for the
# minimum speed.
settle_min() {
	sleep 0.3
	wait_min "$1"
}
