#!/bin/sh
# make bench's guest parts run: each wl workload briefly (the format of its
# summary line and of its trace markers, not its timing), then /bench.sh
# with every part of /bench in a quick configuration (records well formed,
# counted, every part exits 0).  The benchmark's numbers are not checked.
. /lib/ktap.sh
. /lib/board.sh

parts=$(ls /bench/*.sh 2>/dev/null)
nparts=$(echo $parts | wc -w)
ktap_plan $((14 + nparts))

# matches STRING ERE
matches() {
	echo "$1" | grep -Eq "$2"
}

# markers: the trace_marker lines of the trace buffer, "NAME cpu=C seq=K".
markers() {
	sed -n 's/.*tracing_mark_write: //p' $TRACING/trace
}
traced() {
	trace_reset 1024
	echo 1 > $TRACING/tracing_on
	"$@" > /tmp/wl.out
	rc=$?
	echo 0 > $TRACING/tracing_on
	markers > /tmp/wl.marks
	return $rc
}


traced wl tap -n 2 -i 50 -b 20
out=$(cat /tmp/wl.out)
ktap_diag "$out"
ktap_check "wl tap summary line" \
	matches "$out" '^wl tap bursts=2 burst_ms=20 idle_ms=50 cpus=[0-9]+,[0-9]+$'
# Two bursts, each start followed by its end on the same CPU, on two CPUs
# in the order the summary names them.
want=$(echo "$out" | sed 's/.*cpus=//' | awk -F, '{ printf "tap_start cpu=%d seq=0|tap_end cpu=%d seq=0|tap_start cpu=%d seq=1|tap_end cpu=%d seq=1|", $1, $1, $2, $2 }')
got=$(tr '\n' '|' < /tmp/wl.marks)
ktap_eq "wl tap markers: start and end of each burst, CPUs rotating" "$got" "$want"

# -f -s: the scheduler places each burst (it may move it: the end marker
# names the CPU where it was written), its work scaled by the speed and
# capacity of the CPU it runs on.
traced wl tap -n 2 -i 50 -b 20 -f -s
out=$(cat /tmp/wl.out)
ktap_diag "$out"
bad=$(awk '{ want = (NR % 2 ? "tap_start" : "tap_end") " cpu=[0-9]+ seq=" int((NR - 1) / 2) }
	$0 !~ "^" want "$" { print NR ": " $0; exit }
	END { if (NR != 4) print NR " markers for 2 bursts" }' /tmp/wl.marks)
ktap_eq "wl tap -f -s: summary line and the markers of each burst" \
	"$(echo "$out" | grep -Ex 'wl tap bursts=2 burst_ms=20 idle_ms=50 cpus=free scaled=1') $bad" \
	"wl tap bursts=2 burst_ms=20 idle_ms=50 cpus=free scaled=1 "

traced wl frame -t 200 -W 1000 -c 1
out=$(cat /tmp/wl.out)
ktap_diag "$out"
ktap_check "wl frame summary line" \
	matches "$out" '^wl frame frames=[1-9][0-9]* period_us=16667 work_us=1000 late=[0-9]+ scaled=0$'
n=$(echo "$out" | sed -n 's/.*frames=\([0-9]*\) .*/\1/p')
bad=$(awk -v n="${n:-0}" '
	{ want = (NR % 2 ? "frame_start" : "frame_end") " cpu=1 seq=" int((NR - 1) / 2) }
	$0 != want { print NR ": " $0 " (want " want ")"; exit }
	END { if (NR != 2 * n) print NR " markers for " n " frames" }' /tmp/wl.marks)
ktap_eq "wl frame markers: start and end of every frame, on CPU 1" "$bad" ""

# -s: the same loop, each frame's work scaled by the CPU's speed.
traced wl frame -t 100 -W 1000 -c 1 -s
out=$(cat /tmp/wl.out)
ktap_diag "$out"
ktap_check "wl frame -s summary line" \
	matches "$out" '^wl frame frames=[1-9][0-9]* period_us=16667 work_us=1000 late=[0-9]+ scaled=1$'

traced wl idle -t 100 -l 20
ktap_eq "wl idle summary line" "$(cat /tmp/wl.out)" "wl idle ms=100"
ktap_eq "wl idle markers" "$(tr '\n' ' ' < /tmp/wl.marks)" "idle_start idle_end "

bad=""
for args in "tap -n x" "tap -n 0" "frame -W" "idle -t -5" "bogus" "tap extra" \
	"tap -f -c 1" "frame -f"; do
	# shellcheck disable=SC2086
	wl $args > /dev/null 2>&1 && bad="$bad '$args'"
done
ktap_eq "wl rejects bad arguments" "$bad" ""

# The driver with every part, quick: records into a file.
export BENCH_PORT=/tmp/bench.rec BENCH_LOG=/tmp/bench.log BENCH_REPS=1 \
	BENCH_GOVS="interactive performance" BENCH_TAP="-n 2 -i 100 -b 50" \
	BENCH_FRAME="-t 200 -c 1" BENCH_IDLE="-t 200 -l 50" BENCH_SETTLE=0 \
	BENCH_CL_TAP="-n 2 -i 100 -b 30" BENCH_CL_FRAME="-t 200" BENCH_CL_IDLE="-t 200 -l 50" \
	HOOKCOST_ROUNDS=1 HOOKCOST_TRIPS=200 LEDRATE_SECONDS=2 BENCH_TIMEOUT=300 \
	RTAPP_DURATION=1
: > /tmp/bench.log
/bench.sh
sed 's/^/# /' /tmp/bench.log
recs=$(grep -c '^BENCHREC ' /tmp/bench.rec)
end=$(sed -n 's/^### BENCH END records=//p' /tmp/bench.rec)
ktap_eq "bench.sh: BEGIN, END and the record count agree" \
	"$(head -n1 /tmp/bench.rec) $end" "### BENCH BEGIN $recs"
bad=$(grep -v '^###' /tmp/bench.rec | grep -Ev '^BENCHREC \{"part":"[a-z0-9_-]+"(,.*)?\}$' | head -n 3)
ktap_eq "every record is BENCHREC {\"part\":..}" "$bad" ""
for p in $parts; do
	name=$(basename "$p" .sh)
	# the driver's own record: {"name":"NAME","exit":RC,"records":N,..}
	st=$(grep '^BENCHREC {"part":"bench"' /tmp/bench.rec |
		grep -o "{\"name\":\"$name\",\"exit\":[0-9]*,\"records\":[0-9]*")
	ktap_diag "bench.sh: ${st:-no record of part $name}"
	ktap_check "part $name exits 0 with records" \
		matches "$st" '"exit":0,"records":[1-9]'
done
# The governors part: a cell per governor and workload, with markers.
cells=$(grep -c '"part":"governors","kind":"cell".*"marks":\[\[' /tmp/bench.rec)
ktap_eq "governors part: 8 cells with markers" "$cells" 8
# The rtapp part: a cell per governor and workload, each with rt-app's
# log rows (a thread that ran no loop in the short run has none).
rows=$(grep '"part":"rtapp","kind":"cell"' /tmp/bench.rec |
	sed 's/.*"threads"://' | grep -c '\[\[[0-9]')
ktap_eq "rtapp part: 8 cells with rt-app's log rows" "$rows" 8
# The clusters part: on a board of several policies a cell per governor
# and workload (tap, frame, idle), each with markers; on one policy its
# record says why it ran none.
if grep -q '"part":"clusters","kind":"skip"' /tmp/bench.rec; then
	ktap_eq "clusters part: no cells on a board of one policy" \
		"$(grep -c '"part":"clusters","kind":"cell"' /tmp/bench.rec) $(ls -d $CPUFREQ/policy* | wc -l)" "0 1"
else
	cells=$(grep '"part":"clusters","kind":"cell"' /tmp/bench.rec |
		grep '"marks":\[\[' | grep -c '"busy":{"')
	ktap_eq "clusters part: 6 cells with markers and busy time" "$cells" 6
fi
ktap_done
