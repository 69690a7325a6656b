# KTAP output for the in-guest tests (busybox sh).  Source it, declare the
# number of cases with ktap_plan, then report each one with ktap_ok,
# ktap_fail, ktap_check, ktap_bound or ktap_skip.  ktap_done exits 0 if every case
# passed (or was skipped) and all planned cases were reported.
#
#   . /lib/ktap.sh
#   ktap_plan 2
#   ktap_check "policy bound" [ -d /sys/devices/system/cpu/cpufreq/policy0 ]
#   ktap_diag "something worth knowing"
#   ktap_done

KTAP_N=0
KTAP_FAILED=0
KTAP_PLANNED=0

ktap_plan() {
	KTAP_PLANNED=$1
	echo "KTAP version 1"
	echo "1..$1"
}

ktap_diag() {
	echo "# $*"
}

ktap_ok() {
	KTAP_N=$((KTAP_N + 1))
	echo "ok $KTAP_N - $*"
}

ktap_fail() {
	KTAP_N=$((KTAP_N + 1))
	KTAP_FAILED=$((KTAP_FAILED + 1))
	echo "not ok $KTAP_N - $*"
}

# The helpers keep a case's name in _ktap_name, not in a variable a test
# may use itself.
ktap_skip() {
	_ktap_name=$1
	shift
	KTAP_N=$((KTAP_N + 1))
	echo "ok $KTAP_N - $_ktap_name # SKIP $*"
}

# ktap_skip_rest REASON: report every case not yet reported as skipped
# for REASON, and finish.
ktap_skip_rest() {
	while [ "$KTAP_N" -lt "$KTAP_PLANNED" ]; do
		ktap_skip "case $((KTAP_N + 1))" "$1"
	done
	ktap_done
}

# ktap_check NAME CMD...: run CMD, pass if it exits 0.
ktap_check() {
	_ktap_name=$1
	shift
	if "$@"; then ktap_ok "$_ktap_name"; else ktap_fail "$_ktap_name"; fi
}

# ktap_bound NAME CMD...: as ktap_check, for a bound on time (guest time
# from ftrace) or on the speed a load gets, made for the shipped kernel.
# A debug kernel (lockdep: /proc/lockdep) runs many times slower, and its
# own overhead is load: there a miss is reported "not ok ... # TODO" and
# does not fail the test (make check-debug looks for splats; make check
# holds the bounds).
ktap_bound() {
	_ktap_name=$1
	shift
	if "$@"; then
		ktap_ok "$_ktap_name"
	elif [ -e /proc/lockdep ]; then
		KTAP_N=$((KTAP_N + 1))
		echo "not ok $KTAP_N - $_ktap_name # TODO bound missed on a debug kernel"
	else
		ktap_fail "$_ktap_name"
	fi
}

# ktap_eq NAME GOT WANT
ktap_eq() {
	if [ "$2" = "$3" ]; then
		ktap_ok "$1"
	else
		ktap_diag "$1: got '$2', want '$3'"
		ktap_fail "$1"
	fi
}

ktap_done() {
	if [ "$KTAP_N" != "$KTAP_PLANNED" ]; then
		ktap_diag "planned $KTAP_PLANNED cases, reported $KTAP_N"
		exit 1
	fi
	[ "$KTAP_FAILED" = 0 ]
	exit $?
}

# ktap_fails NAME CMD...: run CMD, pass if it fails.
ktap_fails() {
	_ktap_name=$1
	shift
	if "$@"; then ktap_fail "$_ktap_name"; else ktap_ok "$_ktap_name"; fi
}

# kunit_ktap [LINE]: the KTAP that KUnit printed to the kernel log after
# its line LINE (default: all of it), timestamps off, from the first
# "KTAP version 1" on.  The one reader of KUnit's output in the guest
# (run-tests.sh: the built-in suites; 22-interactive-kunit-module).
kunit_ktap() {
	dmesg | tail -n +$((${1:-0} + 1)) | sed 's/^\[[ 0-9.]*\] //' | awk '
		/^ *KTAP version 1$/ { on = 1 }
		on && /^ *(KTAP version|# Subtest:|[0-9]+\.\.[0-9]+|ok |not ok |# )/ { print }'
}
