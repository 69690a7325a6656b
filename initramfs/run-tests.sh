#!/bin/sh
# Run every in-guest test and print one KTAP document on the console:
# each test program is a subtest, its own KTAP indented under it.  The
# KUnit suites built into the kernel ran at boot; their KTAP is taken from
# the kernel log and reported the same way, as the subtest "kunit".
#
# Tests: the executables in /tests, then those in /extra-tests (make check
# EXTRA_TESTS=DIR), in name order.  A test passes when it exits 0 and
# printed at least one KTAP result; one that prints no KTAP fails with a
# message saying so.
#
# tests=a,b on the kernel command line (make check TESTS=a,b) runs only
# the tests whose names (without a leading number and ".sh") or file
# names match one of the shell patterns a, b; "kunit" names the KUnit
# subtest.
. /lib/ktap.sh
. /lib/board.sh

# Seconds each test may take: test_timeout=S on the kernel command line
# (make check ARGS=test_timeout=S, for a long run on the debug kernel).
TIMEOUT=$(cmdline test_timeout "${TEST_TIMEOUT:-900}")
case $TIMEOUT in
''|*[!0-9]*)
	echo "# test_timeout=$TIMEOUT is not a number of seconds: 900"
	TIMEOUT=900 ;;
esac

only=
only=$(cmdline tests | tr ',' ' ')
# selected NAME...: true without a filter or when a pattern matches NAME.
selected() {
	[ -z "$only" ] && return 0
	for pat in $only; do
		for name in "$@"; do
			# shellcheck disable=SC2254
			case "$name" in $pat) return 0 ;; esac
		done
	done
	return 1
}
tests=""
for t in /tests/* /extra-tests/*; do
	[ -f "$t" ] && [ -x "$t" ] || continue
	f=$(basename "$t")
	s=${f%.sh}
	selected "$f" "$s" "${s#[0-9]*-}" && tests="$tests $t"
done
# The KUnit suites built into the kernel ran at boot and printed KTAP to
# the kernel log; take it back out of dmesg (lib/ktap.sh).
kunit_ktap > /tmp/kunit.ktap
suites=""
grep -q '^1\.\.' /tmp/kunit.ktap && selected kunit && suites=kunit
n=0
for _ in $tests $suites; do n=$((n + 1)); done

echo "### TESTS BEGIN"
echo "KTAP version 1"
echo "1..$n"
i=0

for s in $suites; do
	i=$((i + 1))
	sed 's/^/    /' /tmp/kunit.ktap
	plan=$(grep -m1 '^1\.\.' /tmp/kunit.ktap | cut -d. -f3)
	got=$(grep -Ec '^(not )?ok ' /tmp/kunit.ktap)
	if grep -q '^not ok' /tmp/kunit.ktap; then
		echo "not ok $i - kunit"
	elif [ "$got" != "$plan" ]; then
		echo "not ok $i - kunit # $got of $plan suites reported"
	else
		echo "ok $i - kunit"
	fi
done

for t in $tests; do
	i=$((i + 1))
	name=$(basename "$t")
	case "$t" in /extra-tests/*) name="extra.$name" ;; esac
	name=${name%.sh}
	out=/tmp/test.$i.out
	: > "$out"
	# For the host's progress lines (ci/check.py).
	echo "# running $name"
	start=$(cut -d' ' -f1 /proc/uptime)
	( timeout "$TIMEOUT" "$t" 2>&1; echo "$?" > /tmp/test.rc ) |
		while IFS= read -r line; do
			echo "$line" >> "$out"
			echo "    $line"
		done
	rc=$(cat /tmp/test.rc)
	end=$(cut -d' ' -f1 /proc/uptime)
	echo "# $name: exit $rc after $(echo "$start $end" | awk '{printf "%.1f", $2 - $1}') s"
	if ! grep -Eq '^(not )?ok [0-9]+' "$out"; then
		echo "not ok $i - $name # no KTAP output from $t"
	elif [ "$rc" = 143 ] || [ "$rc" = 124 ]; then
		echo "not ok $i - $name # timed out after $TIMEOUT s"
	elif [ "$rc" != 0 ] || grep -E '^not ok [0-9]+' "$out" | grep -vq '# TODO'; then
		echo "not ok $i - $name"
	else
		echo "ok $i - $name"
	fi
done
echo "### TESTS END"

# The kernel log of this boot, for the host to scan.
echo "### DMESG BEGIN"
dmesg
echo "### DMESG END"
