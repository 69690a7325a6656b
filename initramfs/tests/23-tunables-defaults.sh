#!/bin/sh
# The tunables later Android kernels added to the interactive governor:
# their defaults (lib/tunables.tab), and that a malformed or out-of-range
# write fails and leaves the value as it was, while a read written back is
# taken.  (One of the 23-tunables-* tests: make check
# TESTS=tunables-defaults runs it alone.)
. /lib/ktap.sh
. /lib/board.sh

tunables_test_begin 11

# Those later kernels added (lib/tunables.tab; test 20 checks the 2012
# four): each reads its default, boostpulse is write-only.
write_only() {
	[ "$(ls -l $IA/$1 | cut -c1-10)" = "--w-------" ] &&
		! cat $IA/$1 > /dev/null 2>&1
}
for t in $(tunables); do
	case $t in go_hispeed_load | min_sample_time | timer_rate | hispeed_freq) continue ;; esac
	d=$(tunable_default $t)
	if [ "$d" = - ]; then
		ktap_check "$t is write-only" write_only $t
	else
		ktap_eq "$t defaults to $d" "$(cat $IA/$t)" "$d"
	fi
done

# --- Validation ------------------------------------------------------------
bad=""
# try_bad FILE VALUE: the write must fail and leave FILE as it was.
try_bad() {
	before=$(cat "$IA/$1")
	wr "$IA/$1" "$2" && bad="$bad $1='$2':accepted"
	[ "$(cat "$IA/$1")" = "$before" ] || bad="$bad $1='$2':changed"
}
many="1"
i=1
while [ $i -le 16 ]; do many="$many $i:1"; i=$((i + 1)); done
for v in abc "" 0 101 -1 "85 800000" "85 800000:" "85  800000:90" \
	"85 800000:90 600000:95" "85 800000:90 800000:95" "85 0:90" \
	"85 800000:101" "85,800000:90" 123456789012345678901234567890 "$many"; do
	try_bad target_loads "$v"
done
for v in -1 abc "" "20000 800000" 10000001 "20000 800000:10000001"; do
	try_bad above_hispeed_delay "$v"
done
for v in -2 abc "" 10000001 1.5; do try_bad timer_slack "$v"; done
for v in 2 -1 abc ""; do
	try_bad boost "$v"; try_bad io_is_busy "$v"; try_bad sched_hint "$v"
done
for v in -1 abc "" 10000001; do try_bad boostpulse_duration "$v"; done
for v in abc "" -1; do wr $IA/boostpulse "$v" && bad="$bad boostpulse='$v':accepted"; done
ktap_eq "malformed writes fail and leave every new tunable unchanged" "${bad# }" ""

wr $IA/target_loads "85:800000:90 1000000:95"
ktap_eq "bands are read back as VALUE FREQ:VALUE ..." \
	"$(cat $IA/target_loads)" "85 800000:90 1000000:95"
back=""
for f in target_loads above_hispeed_delay timer_slack boost boostpulse_duration \
	io_is_busy sched_hint; do
	wr $IA/$f "$(cat $IA/$f)" || back="$back $f"
done
ktap_eq "writing back what a read shows is accepted" "${back# }" ""
wr $IA/target_loads 90

tunables_test_end
