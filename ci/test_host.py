#!/usr/bin/env python3
"""Unit tests of the host tools, on recorded samples: no build, no boot.

    make test-host      (make check runs them first)

The KTAP reader and the kernel log scan of ci/check.py, the launcher's exit
statuses (boot/board.py), the LED sampler's summary (boot/qemu.py) and
check's LED verdict, and the benchmark's energy model (ci/bench.py) on
hand-worked cases.
"""

import json
import os
import re
import sys
import tempfile
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.path[:0] = [HERE, os.path.join(TOP, "boot")]
import bench_clusters  # noqa: E402
import bench_model as bench  # noqa: E402
import bench_stats  # noqa: E402
import board  # noqa: E402
import check  # noqa: E402
import qemu  # noqa: E402

SAMPLE = os.path.join(HERE, "testdata", "console-sample.log")


def sample():
    with open(SAMPLE) as f:
        return f.read().splitlines()


class Ktap(unittest.TestCase):
    def setUp(self):
        self.tests, self.closed = check.section(sample(), "### TESTS BEGIN",
                                                "### TESTS END")
        self.top, self.plan = check.parse_ktap(self.tests)

    def test_section_and_plan(self):
        self.assertTrue(self.closed)
        self.assertEqual(self.plan, 4)
        self.assertEqual([c.name for c in self.top],
                         ["kunit", "20-interactive", "21-module",
                          "30-skipped"])

    def test_leaves(self):
        diags = {}
        rows = [r for c in self.top for r in check.leaves(c, [], diags)]
        self.assertEqual([(n, s) for n, s, _ in rows], [
            ("kunit/sched_idle_notifier/idle_notifier_test_static_key",
             "PASS"),
            ("kunit/sched_idle_notifier/idle_notifier_test_alternate",
             "PASS"),
            ("20-interactive/tunables at their defaults", "PASS"),
            ("20-interactive/a burst ramps within timer_rate + 2 ticks",
             "FAIL"),
            ("20-interactive/light load stays low", "SKIP"),
            ("20-interactive/drop bound", "SKIP"),       # TODO
            ("21-module/the module loads", "PASS"),
            # every case passed, the test did not (its time-out)
            ("21-module", "FAIL"),
            ("30-skipped", "SKIP"),
        ])
        # A failure keeps the diagnostics printed before it, not the
        # kernel's console messages.
        self.assertEqual(
            diags["20-interactive/a burst ramps within timer_rate + 2 ticks"],
            ["hispeed_freq 1000000", "ramp took 25701 us (bound 40000 us)"])
        self.assertIn("21-module", diags)

    def test_unclosed_document(self):
        lines = [l for l in sample() if l != "### TESTS END"]
        _, closed = check.section(lines, "### TESTS BEGIN", "### TESTS END")
        self.assertFalse(closed)

    def test_kunit_tool_agrees_or_skips(self):
        # Relative paths, as make check gives them (build/check): kunit.py
        # changes to the kernel tree's directory.
        build = os.path.join(TOP, "build")
        if not os.path.isdir(build):
            self.skipTest("no build/ (make tree)")
        os.chdir(TOP)
        with tempfile.TemporaryDirectory(dir=build) as out:
            a = types.SimpleNamespace(build="build", out=os.path.relpath(out))
            name, status, note = check.kunit_tool_row(a, "t", self.tests,
                                                      self.top)
        if status == "SKIP":
            self.skipTest(note)       # no kernel tree (make tree)
        # 4 passed, 2 failed (the TODO is a failure to kunit.py), 2
        # skipped; the whole-test failure of 21-module is not a leaf.
        self.assertEqual(status, "PASS", note)
        self.assertIn("passed: 4, failed: 2, skipped: 2", note)

    def test_kunit_tool_catches_a_missing_result(self):
        a = types.SimpleNamespace(build=os.path.join(TOP, "build"),
                                  out=tempfile.mkdtemp())
        bad = [l for l in self.tests if l != "    ok 1 - the module loads"]
        top, _ = check.parse_ktap(bad)
        name, status, note = check.kunit_tool_row(a, "t", bad, top)
        if status == "SKIP":
            self.skipTest(note)
        self.assertEqual(status, "FAIL", note)


class Splat(unittest.TestCase):
    def test_scan(self):
        hits = [l for l in sample() if check.SPLAT.search(l)]
        self.assertEqual(len(hits), 1)
        self.assertIn("__irq_startup", hits[0])

    def test_patterns(self):
        for bad in ("[ 1.0] BUG: sleeping function called from invalid context",
                    "[ 1.0] WARNING: possible circular locking dependency detected",
                    "[ 1.0] Unable to handle kernel NULL pointer dereference",
                    "[ 1.0] kmemleak: 3 new suspected memory leaks",
                    "[ 1.0] rcu: INFO: rcu_sched self-detected stall on CPU"):
            self.assertTrue(check.SPLAT.search(bad), bad)
        for good in ("[ 1.0] OOM killer enabled.",
                     "[ 1.0] cpufreq: interactive: hispeed_freq 1000000",
                     "ok 3 - no new warning, oops or lockdep report"):
            self.assertFalse(check.SPLAT.search(good), good)


    def test_shell_errors(self):
        lines = ["/soak.sh: line 211: suspends 25,: not found",
                 "/tests/2.sh: line 9: syntax error: unexpected \"fi\"",
                 "/tests/21-x.sh: line 80: can't create /sys/x: No such device"]
        self.assertEqual(check.shell_row(lines[2:], "n"), ("n", "PASS", ""))
        name, status, note = check.shell_row(lines, "n")
        self.assertEqual(status, "FAIL")
        self.assertTrue(note.startswith("2: /soak.sh: line 211"), note)


class Launcher(unittest.TestCase):
    def test_exit_statuses(self):
        self.assertEqual(board.why(0), "")
        self.assertIn("panicked", board.why(3))
        self.assertIn("hung", board.why(124))
        self.assertEqual(board.why(1), "qemu exit status 1")

    def test_command_line(self):
        b = board.Board("B", "module", "x.dtb", "l.log", 60,
                        append="mode=check  tests=a", leds="l.json",
                        qemu_args=["-serial", "file:r"], nice=-5)
        self.assertEqual(b.cmd[:3], ["nice", "-n", "-5"])
        self.assertIn("B/obj-module/arch/arm/boot/zImage", b.cmd)
        self.assertIn("B/initramfs-module.cpio.gz", b.cmd)
        self.assertEqual(b.append, "console=ttyAMA0 mode=check tests=a")
        self.assertEqual(b.cmd[-2:], ["--qemu-arg=-serial",
                                      "--qemu-arg=file:r"])
        self.assertEqual(len(b.missing()), 3)


class Leds(unittest.TestCase):
    CPU1 = 1 << 3      # user LED 4: the trigger cpu1

    def test_summary(self):
        s = qemu.LedSampler("unused", 0.02, False, None, ncpus=4)
        busy = {"phase": "busy", "cpu": 1, "start": 0, "samples": [
            (0.0, self.CPU1), (0.02, self.CPU1), (0.04, self.CPU1 | 4)]}
        self.assertEqual(s.summary(busy),
                         "cpu1 busy 0.04 s: its LED lit in 100% of 3 "
                         "samples; the other LEDs dark in 66%")
        s.mark("busy", 1)
        s.mark("idle", 1)       # closes the busy phase
        s.mark("end", None)
        self.assertEqual([p["phase"] for p in s.phases], ["busy", "idle"])

    def test_verdict(self):
        early = [(0.1, self.CPU1)] * 3          # before 0.2 s: ignored
        rep = {"error": None, "phases": [
            {"phase": "busy", "cpu": 1,
             "samples": early + [(0.2 + i / 50, self.CPU1) for i in range(9)]
             + [(0.5, 0)]},
            {"phase": "idle", "cpu": 1,
             "samples": [(0.2 + i / 50, self.CPU1 if i < 6 else 0)
                         for i in range(10)]}]}
        path = os.path.join(tempfile.mkdtemp(), "leds.json")
        with open(path, "w") as f:
            json.dump(rep, f)
        rows = check.led_rows(path, "v")
        self.assertEqual(rows, [
            ("v/host/led cpu1 lit while busy", "PASS", "lit in 9 of 10 samples"),
            ("v/host/led cpu1 dark while idle", "FAIL", "lit in 6 of 10 samples")])


class EnergyModel(unittest.TestCase):
    # Two OPPs: 500 MHz at 0.1 W, 1 GHz at 0.4 W (uW per kHz key).
    POWER = {500000: 100000, 1000000: 400000}

    def test_em_table(self):
        # The kernel's formula: C * V(mV)^2 * f(MHz) / 10^6 uW.
        self.assertEqual(bench.em_table({1000000: 1100000}, 100),
                         {1000000: 121000})

    def test_oracle(self):
        # 10 ms of work at 1 GHz: no slack, the top OPP (4 mJ); twice the
        # time, all of it at 500 MHz (2 mJ); half again, 10 ms at 500 MHz
        # and 5 ms at 1 GHz (1 + 2 mJ).
        e = bench.oracle_energy
        self.assertAlmostEqual(e(0.01, 1000000, self.POWER, 0.0), 0.004)
        self.assertAlmostEqual(e(0.01, 1000000, self.POWER, 1.0), 0.002)
        self.assertAlmostEqual(e(0.01, 1000000, self.POWER, 0.5), 0.003)

    def test_run_work(self):
        # 500 MHz until 10 ms, then 1 GHz: 10 ms of top-speed work ends at
        # 15 ms, 1 mJ + 2 mJ.
        speed = bench.Speed(500000, [(0.01, 1000000)])
        t, j = bench.run_work(speed, (0, 0.02), 0, 0.01, 1000000, self.POWER)
        self.assertAlmostEqual(t, 0.015)
        self.assertAlmostEqual(j, 0.003)
        # The guest went idle at 5 ms: the rest runs at the speed it had.
        t, j = bench.run_work(speed, (0, 0.005), 0, 0.01, 1000000,
                              self.POWER)
        self.assertAlmostEqual(t, 0.02)
        self.assertAlmostEqual(j, 0.002)

    def test_speed(self):
        sp = bench.Speed(200000, [(2.0, 800000), (1.0, 500000)])
        self.assertEqual(sp.at(0.5), 200000)
        self.assertEqual(sp.at(1.5), 500000)
        self.assertEqual(sp.first_at_least(0.0, 800000, 3.0), 2.0)
        self.assertIsNone(sp.first_at_least(0.0, 800000, 1.9))

    def test_idle_wakeup_rules(self):
        evals = [[1.0, 3, 100, 600000, "hint"], [0.5, 1, 2, 200000, "lower"]]
        here = [1.001, 3, "interactive_hint_work"]
        there = [1.001, 2, "interactive_up_work"]
        self.assertTrue(bench.decided_here(evals, here))
        self.assertFalse(bench.decided_here(evals, there))
        self.assertFalse(bench.decided_here(evals, [1.1, 3, "sugov_work"]))
        # carried out after the window began, decided before it
        self.assertTrue(bench.decided_before(evals, there, 1.0005))
        self.assertFalse(bench.decided_before(evals, there, 0.9))

    def test_percentile(self):
        self.assertEqual(bench_stats.median([3, 1, 2]), 2)


class Clusters(unittest.TestCase):
    """The clusters part's analysis: each cluster's energy model applied
    to busy time, bursts and frames from their markers, EAS from the
    switches away from schedutil."""
    BOARD = {"kind": "board", "reps": 1, "sched_energy_aware": 1,
             "policies": [
                 {"policy": "policy0", "cpus": [0, 1],
                  "freqs_khz": [200000, 600000],
                  "em": [{"khz": 200000, "power_uw": 10000},
                         {"khz": 600000, "power_uw": 30000}],
                  "capacity": {"0": 346, "1": 346}},
                 {"policy": "policy2", "cpus": [2, 3],
                  "freqs_khz": [200000, 1000000],
                  "em": [{"khz": 200000, "power_uw": 20000},
                         {"khz": 1000000, "power_uw": 200000}],
                  "capacity": {"2": 1024, "3": 1024}}]}

    def cell(self, gov, wl, busy, marks, prev="none", eas=0, wake=0):
        return {"kind": "cell", "gov": gov, "workload": wl, "rep": 0,
                "busy": busy, "marks": marks, "wake": wake, "deferred": 0,
                "eas_off": eas, "prev": prev}

    def test_analysis(self):
        recs = [self.BOARD,
                # 0.1 s on cpu1 at 600 MHz (3 mJ) and 0.1 s on cpu2 at
                # 1 GHz (20 mJ); bursts of 100 and 300 ms, one on big.
                self.cell("schedutil", "tap",
                          {"1": {"600000": 0.1}, "2": {"1000000": 0.1}},
                          [[1.0, "tap_start", 1, 0], [1.1, "tap_end", 2, 0],
                           [3.0, "tap_start", 1, 1], [3.3, "tap_end", 1, 1]]),
                self.cell("interactive", "idle", {"0": {"200000": 0.5}},
                          [[1.0, "idle_start", -1, -1],
                           [11.0, "idle_end", -1, -1]],
                          prev="schedutil", eas=1, wake=5),
                self.cell("schedutil", "frame", {"3": {"200000": 1.0}},
                          [[0.0, "frame_start", 3, 0],
                           [0.005, "frame_end", 3, 0],
                           [0.0167, "frame_start", 3, 1],
                           [0.0367, "frame_end", 3, 1]],
                          prev="interactive")]
        r = bench_clusters.analyse_clusters(recs)
        st = r["stats"]["schedutil"]
        self.assertAlmostEqual(st["tap_mj"]["median"], 23.0)
        self.assertAlmostEqual(st["tap_ms"]["median"], 200.0)
        self.assertAlmostEqual(st["tap_ms"]["p95"], 300.0)
        self.assertEqual(st["tap_big"]["median"], 50.0)
        self.assertEqual(st["frame_over"]["median"], 1)
        self.assertAlmostEqual(st["frame_mj"]["median"], 20.0)
        ia = r["stats"]["interactive"]
        self.assertAlmostEqual(ia["idle_mj"]["median"], 5.0)
        self.assertAlmostEqual(ia["idle_wakeups"]["median"], 0.5)
        self.assertEqual(r["eas"]["disabled_msgs"], 1)
        self.assertEqual(r["eas"]["switches_away"], 1)
        md = "\n".join(bench_clusters.clusters_md(r))
        self.assertIn("| schedutil | 200.0 / 300.0 | 50.0 | 23.0 |", md)

    def test_one_policy(self):
        r = bench_clusters.analyse_clusters(
            [{"kind": "skip", "why": "one cpufreq policy"}])
        self.assertEqual(r, {"skipped": "one cpufreq policy"})
        self.assertIn("Not run: one cpufreq policy.",
                      bench_clusters.clusters_md(r))


TABLE = os.path.join(TOP, "initramfs", "lib", "tunables.tab")
DOC = os.path.join(TOP, "build", "linux", "Documentation", "admin-guide",
                   "pm", "cpufreq.rst")


def tunables():
    """lib/tunables.tab: [(name, default, rule)]."""
    with open(TABLE) as f:
        return [tuple(l.split()) for l in f
                if l.strip() and not l.startswith("#")]


def words(text):
    return set(re.findall(r"-?\w+", text))


class ResultsPage(unittest.TestCase):
    def test_blocks(self):
        import results
        page = os.path.join(tempfile.mkdtemp(), "results.md")
        with open(page, "w") as f:
            f.write("# R\n\ntext\n<!-- BEGIN a -->\nold\n<!-- END a -->\n"
                    "tail\n")
        self.assertTrue(results.update("a", ["new 1", "new 2"], page))
        self.assertTrue(results.update("b", ["b"], page))
        with open(page) as f:
            self.assertEqual(f.read(), "# R\n\ntext\n<!-- BEGIN a -->\n"
                             "new 1\nnew 2\n<!-- END a -->\ntail\n\n"
                             "<!-- BEGIN b -->\nb\n<!-- END b -->\n")


class Tunables(unittest.TestCase):
    """The tunables' one table agrees with the series' documentation (in
    the patched tree: make tree) and with doc/governor.md's table."""

    def test_table(self):
        t = tunables()
        self.assertEqual(len(t), 12)
        for name, default, rule in t:
            self.assertRegex(rule, r"^(wo|(u?int|bands):[-\w]+:[-\w]+)$",
                             name)
            self.assertRegex(default, r"^(-|max|-?\d+)$", name)

    def test_documentation(self):
        if not os.path.exists(DOC):
            self.skipTest("no %s (make tree)" % DOC)
        with open(DOC) as f:
            doc = f.read()
        doc = doc[doc.index("This governor exposes the following tunables"):]
        paras = dict(re.findall(r"^``(\w+)``\n((?:\t.*\n)+)", doc, re.M))
        for name, default, rule in tunables():
            self.assertIn(name, paras, "%s is not documented" % name)
            text = " ".join(paras[name].split())
            w = words(text.replace("``", ""))
            if default == "-":
                self.assertIn("Write-only", text, name)
            elif default == "max":
                self.assertRegex(text, r"maximum\b.* by default", name)
            else:
                self.assertIn("default", text, name)
                self.assertIn(default, w, "%s: default %s: %s"
                              % (name, default, text))
            if rule == "wo":
                continue
            _, lo, hi = rule.split(":")
            for bound in (lo, hi):
                want = {"tick": "tick", "min": "hardware",
                        "max": "hardware"}.get(bound, bound)
                self.assertIn(want, w | words(text), "%s: bound %s: %s"
                              % (name, bound, text))

    def test_readme(self):
        with open(os.path.join(TOP, "doc", "governor.md")) as f:
            rows = dict(re.findall(r"^\| `(\w+)` \| ([^|]+) \|", f.read(),
                                   re.M))
        for name, default, _ in tunables():
            self.assertIn(name, rows, "%s: no row in doc/governor.md" % name)
            want = {"-": "(write-only)", "max": "policy max"}.get(default,
                                                                  default)
            self.assertEqual(rows[name].strip(), want, name)


if __name__ == "__main__":
    unittest.main()
