#!/bin/sh
# The governor benchmark's guest side (mode=bench, see make bench and
# ci/bench.py): run every executable /bench/*.sh in name order.
#
# A part writes its results to stdout as single lines
#   BENCHREC <one-line JSON object with at least a "part" key>
# and anything else it prints is progress, shown on the console.  This
# driver sends the records to the data port, between the lines
# "### BENCH BEGIN" and "### BENCH END records=N", and ends with a record of
# its own: {"part":"bench","parts":[{"name":..,"exit":..,"records":..,
# "seconds":..},..]}.  A part that fails or hangs does not stop the others.
#
# Kernel command line (set by ci/bench.py), or the environment in
# brackets (tests/40-bench-smoke.sh):
#   bench_port=TTY     [BENCH_PORT=FILE] data port, e.g. ttyAMA1 (the
#                      host's second serial port, which the kernel never
#                      writes to); default the console
#   bench_parts=a,b    [BENCH_PARTS] only the parts whose names (without
#                      the number prefix and .sh) match one of these shell
#                      patterns
#   bench_reps=N       [BENCH_REPS] runs of each cell, for the parts
#   bench_govs=a,b     [BENCH_GOVS] governors to compare, for the parts
#   bench_workloads=a,b  [BENCH_WORKLOADS] the governors part's workloads
#   bench_timeout=S    [BENCH_TIMEOUT] seconds a part may take (3600)
# Progress goes to the console, or to the file BENCH_LOG.
. /lib/board.sh

port=${BENCH_PORT:-/dev/console}
only=$(echo "${BENCH_PARTS:-}" | tr ',' ' ')
timeout=${BENCH_TIMEOUT:-3600}
log=${BENCH_LOG:-/dev/console}
v=$(cmdline bench_port) && [ -z "$v" ] || port=/dev/$v
only=$(cmdline bench_parts "$only" | tr ',' ' ')
BENCH_REPS=$(cmdline bench_reps "$BENCH_REPS")
BENCH_GOVS=$(cmdline bench_govs "$BENCH_GOVS" | tr ',' ' ')
BENCH_WORKLOADS=$(cmdline bench_workloads "$BENCH_WORKLOADS" | tr ',' ' ')
export BENCH_REPS BENCH_GOVS BENCH_WORKLOADS
timeout=$(cmdline bench_timeout "$timeout")
case "$port" in
/dev/console) ;;
/dev/tty*)
	# Raw: no CR before LF, no echo of what the host might send.
	stty -F "$port" raw -echo 2>/dev/null ||
		{ echo "bench: data port $port unusable, using the console" >> "$log"; port=/dev/console; }
	;;
esac

selected() {
	[ -z "$only" ] && return 0
	for pat in $only; do
		# shellcheck disable=SC2254
		case "$1" in $pat) return 0 ;; esac
	done
	return 1
}

echo "### BENCH BEGIN" > "$port"
total=0
summary=
for p in /bench/*.sh; do
	[ -f "$p" ] && [ -x "$p" ] || continue
	name=$(basename "$p" .sh)
	short=${name#[0-9]*-}
	selected "$short" || selected "$name" || continue
	echo "bench: part $name" >> "$log"
	start=$(cut -d' ' -f1 /proc/uptime)
	# Records to the port, everything else (stderr too) to the console.
	( timeout "$timeout" "$p" 2>&1; echo $? > /tmp/bench.rc ) |
		awk -v port="$port" -v logf="$log" -v name="$name" '
			/^BENCHREC \{.*\}$/ { print >> port; fflush(port); n++; next }
			{ print "bench: " name ": " $0 >> logf; fflush(logf) }
			END { print n + 0 > "/tmp/bench.n" }'
	rc=$(cat /tmp/bench.rc)
	n=$(cat /tmp/bench.n)
	end=$(cut -d' ' -f1 /proc/uptime)
	secs=$(echo "$start $end" | awk '{ printf "%.1f", $2 - $1 }')
	echo "bench: part $name: exit $rc, $n records, $secs s" >> "$log"
	total=$((total + n))
	summary="$summary${summary:+,}{\"name\":\"$name\",\"exit\":$rc,\"records\":$n,\"seconds\":$secs}"
done
echo "BENCHREC {\"part\":\"bench\",\"kernel\":\"$(uname -r)\",\"cpus\":$NCPUS,\"parts\":[$summary]}" >> "$port"
total=$((total + 1))
echo "### BENCH END records=$total" >> "$port"
