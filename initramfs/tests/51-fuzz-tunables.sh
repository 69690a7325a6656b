#!/bin/sh
# Fuzz every writable file of cpufreq/interactive/ and the policy's
# scaling_* files with fuzzwr (initramfs/src/fuzzwr.c): random bytes, long
# strings, signs, hex, huge numbers, embedded NULs, newlines, governor
# names.  Each write must be rejected with EINVAL and leave the value as it
# was, or be accepted and read back as the value the kernel's parser makes
# of it (a number within the tunable's bounds, a band string such as
# target_loads' "85 800000:90", a listed frequency, a listed governor);
# fuzzwr models what each store must accept.  The write-only boostpulse is
# only checked for accepting or rejecting each write.  Then the defaults
# go back, the governor must still ramp on a burst, and the kernel log must
# have stayed clean.
#
# The payloads follow from the seed (printed; fuzz_seed=N on the kernel
# command line changes it) and each file's name; fuzz_n=N sets the writes
# per file.  A mismatch prints the payload index: "fuzzwr -s SEED -n N
# -r INDEX FILE RULE" replays it.
. /lib/ktap.sh
. /lib/board.sh
. /lib/health.sh

IA=$CPUFREQ/interactive
SEED=20120206
N=600
SEED=$(cmdline fuzz_seed $SEED)
N=$(cmdline fuzz_n $N)

old_gov=$(cat $POLICY/scaling_governor)
splats0=$(splat_count)
set_governor interactive
cpu_min=$(cat $POLICY/cpuinfo_min_freq)
cpu_max=$(cat $POLICY/cpuinfo_max_freq)
freqs=$(tr ' ' '\n' < $POLICY/scaling_available_frequencies | grep . | tr '\n' ',')
govs=$(tr ' ' '\n' < $POLICY/scaling_available_governors | grep . | tr '\n' ',')

# writable DIR PATTERN: the files of DIR matching PATTERN with a w bit.
writable() {
	ls -l "$1" | awk -v p="$2" '$1 ~ /^-.*w/ && $NF ~ p { print $NF }'
}
# write_only FILE: nobody may read FILE (--w-------: boostpulse, whose
# show fails with EPERM even for root).
write_only() {
	case "$(ls -l "$1")" in
	--??-??-*) return 0 ;;
	esac
	return 1
}
# rule FILE: what fuzzwr must expect of FILE ("" when there is no rule):
# the interactive tunables' rules are in their table (lib/tunables.tab).
rule() {
	case "$1" in
	scaling_min_freq | scaling_max_freq) echo "freq:${freqs%,}" ;;
	scaling_governor) echo "gov:${govs%,}" ;;
	scaling_setspeed) echo "none" ;;
	*) tunable_rule "$1" ;;
	esac
}

ia_files=$(writable $IA .)
sc_files=$(writable $POLICY '^scaling_')
set -- $ia_files $sc_files
ktap_plan $(($# + 5))
ktap_diag "seed $SEED, $N writes per file; frequencies ${freqs%,}; governors ${govs%,}"

norule=
for f in $ia_files $sc_files; do [ -n "$(rule $f)" ] || norule="$norule $f"; done
ktap_eq "every writable file has a fuzz rule" "${norule# }" ""

# The defaults, one "FILE VALUE" line each: band strings hold blanks.
DEFAULTS=/tmp/fuzz.defaults
: > $DEFAULTS
for f in $ia_files; do
	write_only $IA/$f || echo "$f $(cat $IA/$f)" >> $DEFAULTS
done
# restore_defaults: write them back; $bad names those that read otherwise.
restore_defaults() {
	bad=
	while read -r f v; do
		wr $IA/$f "$v"
		[ "$(cat $IA/$f)" = "$v" ] || bad="$bad $f"
	done < $DEFAULTS
}

WRITES=0
# fuzz NAME DIR FILE RULE: one fuzzwr run, one KTAP case.
fuzz() {
	out=/tmp/fuzz.$3.out
	fuzzwr -s $SEED -n $N "$2/$3" "$4" > $out 2>&1
	rc=$?
	grep -m 10 -v ': .* writes, ' $out | sed 's/^/# /'
	sum=$(grep ': .* writes, ' $out)
	ktap_diag "${sum:-fuzzwr printed no summary}"
	set -- $sum
	WRITES=$((WRITES + ${3:-0}))
	[ -n "$sum" ] && [ $rc = 0 ]
}

for f in $ia_files; do
	r=$(rule $f)
	if [ -z "$r" ]; then ktap_fail "interactive/$f: no rule"; continue; fi
	ktap_check "interactive/$f: fuzzed writes answered as the model says" \
		fuzz "$f" $IA $f "$r"
done
restore_defaults

for f in $sc_files; do
	r=$(rule $f)
	if [ -z "$r" ]; then ktap_fail "$f: no rule"; continue; fi
	ktap_check "$f: fuzzed writes answered as the model says" fuzz $f $POLICY $f "$r"
	# Back to the full range and to interactive after each file.
	wr $POLICY/scaling_max_freq $cpu_max
	wr $POLICY/scaling_min_freq $cpu_min
	set_governor interactive
done

# scaling_setspeed once more, with the governor that takes it.
set_governor userspace
ktap_check "scaling_setspeed (userspace): fuzzed writes answered as the model says" \
	fuzz setspeed $POLICY scaling_setspeed "speed:${freqs%,}"
set_governor interactive
ktap_diag "$WRITES fuzzed writes in all"

restore_defaults
ktap_eq "the tunables take their defaults back" "${bad# }" ""
ktap_ramps "after the fuzzing" "the governor still ramps to hispeed_freq on a burst"
n=$(splat_count)
[ "$n" = "$splats0" ] || splat_lines $splats0 | sed 's/^/# /'
ktap_eq "no new warning, oops or lockdep report in the kernel log" "$n" "$splats0"
set_governor "$old_gov"
ktap_done
