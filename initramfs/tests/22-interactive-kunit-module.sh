#!/bin/sh
# The governor's KUnit suite as a module (the module variant builds it as
# cpufreq_interactive_test.ko): load it, take the KTAP it printed to the
# kernel log and report it as this test's own results, then unload it.
# Skipped when the suite is built in (it ran at boot, in "kunit").
. /lib/ktap.sh
. /lib/board.sh

dep=/lib/modules/$(uname -r)/modules.dep
if ! grep -q "cpufreq_interactive_test.ko:" "$dep"; then
	ktap_plan 1
	ktap_skip "cpufreq_interactive KUnit suite as a module" \
		"the suite is built in and ran at boot"
	ktap_done
fi

mark=$(dmesg | wc -l)
if ! modprobe cpufreq_interactive_test; then
	ktap_plan 1
	ktap_fail "modprobe cpufreq_interactive_test"
	ktap_done
fi
# The suite's KTAP: the lines after the mark (lib/ktap.sh), without the
# top-level header (this script prints its own).
kunit_ktap "$mark" |
	grep -Ev '^(KTAP version|[0-9]+\.\.[0-9]+$)' > /tmp/kunit-mod.ktap
rmmod cpufreq_interactive_test
rmmod cpufreq_interactive 2>/dev/null

if ! grep -Eq '^(not )?ok [0-9]+ ' /tmp/kunit-mod.ktap; then
	ktap_plan 1
	ktap_fail "cpufreq_interactive KUnit suite printed no result"
	ktap_done
fi
echo "KTAP version 1"
echo "1..$(grep -Ec '^(not )?ok [0-9]+ ' /tmp/kunit-mod.ktap)"
cat /tmp/kunit-mod.ktap
! grep -q '^not ok' /tmp/kunit-mod.ktap
