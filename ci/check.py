#!/usr/bin/env python3
"""Boot each kernel variant with the test image and report the results.

For every --variant: boot the board in mode=check (boot/qemu.py), read the
KTAP document the guest prints between "### TESTS BEGIN" and "### TESTS END"
(in-guest tests and the KUnit suites), scan the kernel log for warnings,
oopses and lockdep reports, and check the LEDs the host sampled from the
board's SYS_LED register.  Prints a table of every test case, then a last
line "N passed, N failed"; exits 1 if anything failed.

The console of each boot is kept in OUT/VARIANT.console.log, and all of
them together in OUT/console.log.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(TOP, "boot"))
import board  # noqa: E402  (boot/board.py: the board's boots)
from board import Board  # noqa: E402
import results  # noqa: E402  (ci/results.py: the results page)

RESULT = re.compile(r"^(\s*)(ok|not ok)\s+(\d+)\s*(?:-\s*)?([^#]*?)\s*(?:#\s*(.*))?$")
PLAN = re.compile(r"^(\s*)1\.\.(\d+)\s*$")
DIAG = re.compile(r"^(\s*)#\s?(.*)$")
# Diagnostic lines kept per failed case, for the summary at the end.
DIAG_KEEP = 12

# What makes a kernel log unclean.
SPLATS = [
    r"WARNING:",
    r"BUG:",
    r"Oops",
    r"Kernel panic",
    r"Unable to handle kernel",
    r"Internal error:",
    r"possible circular locking dependency",
    r"possible recursive locking",
    r"inconsistent lock state",
    r"INFO: lockdep",
    r"lockdep: ",
    r"suspicious RCU usage",
    r"detected stalls? on CPU",
    r"self-detected stall",
    r"blocked for more than",
    r"kmemleak: [0-9]+ new suspected memory leaks",
    r"KASAN",
    r"UBSAN",
    r"Call [Tt]race:",
]
# Written in the common subset of Python and POSIX extended regular
# expressions: ci/initramfs.sh gives the guest the same list (the
# reliability tests and the soak scan dmesg with grep -E).
SPLAT = re.compile("|".join(SPLATS))
# A bug in a guest script, as busybox sh reports it (a write that fails,
# "can't create", is some tests' purpose: not this).
SHELL_ERR = re.compile(r"\.sh: line \d+: (.*: not found|syntax error.*)$")


def shell_row(lines, name):
    """The host's row: no guest script hit a shell error."""
    bad = [l.strip() for l in lines if SHELL_ERR.search(l)]
    return (name, "FAIL" if bad else "PASS",
            "%d: %s" % (len(bad), bad[0][:100]) if bad else "")


def report(rows, diags=None):
    """Print the rows as a table, then each failure again with the
    diagnostics its test printed before it (diags: row name -> lines), then
    "N passed, N failed[, N skipped]"; return the number of failed rows."""
    width = max(len(n) for n, _, _ in rows)
    print()
    for name, status, note in rows:
        print("%-4s  %-*s  %s" % (status, width, name, note))
    failures = [(n, t) for n, s, t in rows if s == "FAIL"]
    if failures:
        print()
        print("Failures:")
        for name, note in failures:
            print("  %s%s" % (name, "  (%s)" % note if note else ""))
            for line in (diags or {}).get(name, []):
                print("    # %s" % line)
    passed = sum(1 for _, s, _ in rows if s == "PASS")
    failed = sum(1 for _, s, _ in rows if s == "FAIL")
    skipped = sum(1 for _, s, _ in rows if s == "SKIP")
    print()
    print("%d passed, %d failed%s" % (passed, failed,
                                       ", %d skipped" % skipped if skipped
                                       else ""))
    return failed


class Case:
    def __init__(self, name, ok, directive="", children=None, diag=None):
        self.name = name
        self.ok = ok
        self.directive = directive or ""
        self.children = children or []
        self.diag = diag or []      # the "# " lines printed before it

    @property
    def skipped(self):
        return self.directive.upper().startswith("SKIP")

    @property
    def todo(self):
        """A "not ok ... # TODO": an expected failure (a time bound on a
        debug kernel, see ktap_timed), reported as skipped."""
        return self.directive.upper().startswith("TODO")


def parse_ktap(lines):
    """Parse nested KTAP; return (top-level cases, top-level plan)."""
    pending = {}          # indent -> results seen at that indent, not yet owned
    # The last DIAG_KEEP diagnostics of the test in progress: a test often
    # prints one measurement and checks it twice, so a result keeps the
    # lines printed before earlier results too.
    diag = []
    plan = None
    for line in lines:
        line = line.rstrip("\r\n")
        if line.startswith("["):      # a kernel message on the console
            continue
        m = DIAG.match(line)
        if m:
            diag.append(m.group(2))
            continue
        m = PLAN.match(line)
        if m:
            diag = []             # a new (sub)test starts
            if len(m.group(1)) == 0 and plan is None:
                plan = int(m.group(2))
            continue
        m = RESULT.match(line)
        if not m:
            continue
        indent = len(m.group(1).expandtabs(8))
        case = Case(m.group(4).strip() or "test %s" % m.group(3),
                    m.group(2) == "ok", m.group(5), diag=diag[-DIAG_KEEP:])
        diag = diag[-DIAG_KEEP:]
        deeper = [i for i in pending if i > indent]
        for i in sorted(deeper):
            case.children.extend(pending.pop(i))
        pending.setdefault(indent, []).append(case)
    top = pending.get(min(pending), []) if pending else []
    return top, plan


def leaves(case, path, diags=None):
    """Flatten a case into (name, status, note) rows; with diags (a dict),
    record the diagnostics of each failed row under its name."""
    name = path + [case.name]
    if not case.children:
        status = "SKIP" if case.skipped or case.todo else \
            ("PASS" if case.ok else "FAIL")
        if status == "FAIL" and diags is not None:
            diags["/".join(name)] = case.diag
        yield "/".join(name), status, case.directive
        return
    for c in case.children:
        yield from leaves(c, name, diags)
    if not case.ok and all(c.ok or c.todo for c in case.children):
        # Every case passed but the test as a whole did not (exit status,
        # time-out, missing results): that is a failure of its own.
        if diags is not None:
            diags["/".join(name)] = case.diag
        yield "/".join(name), "FAIL", case.directive or "test failed as a whole"


def kunit_tool_row(a, variant, tests, top):
    """The kernel's own KTAP parser (tools/testing/kunit/kunit.py parse)
    over the test document: no parse error, and the same counts as ours (a
    TODO is a failure to it, as it knows only the SKIP directive)."""
    name = "%s/host/kunit.py parse agrees with these results" % variant
    tool = os.path.join(a.build, "linux/tools/testing/kunit/kunit.py")
    if not os.path.exists(tool):
        return (name, "SKIP", "no %s (make tree)" % tool)
    # Absolute: kunit.py changes to the kernel tree's directory.
    doc = os.path.abspath(os.path.join(a.out, "%s.ktap" % variant))
    with open(doc, "w") as f:
        f.write("\n".join(tests) + "\n")
    r = subprocess.run([sys.executable, os.path.abspath(tool), "parse", doc],
                       capture_output=True, text=True, errors="replace")
    out = r.stdout + r.stderr
    m = None
    for m in re.finditer(r"Ran (\d+) tests: (.*)", out):
        pass
    if r.returncode not in (0, 1) or not m:
        return (name, "FAIL", "kunit.py parse exit %d: %s" % (
            r.returncode, (out.strip().splitlines() or [""])[-1]))
    got = dict((k, int(v)) for k, v in
               re.findall(r"(passed|failed|crashed|skipped|errors): (\d+)",
                          m.group(2)))
    ours = {"passed": 0, "failed": 0, "skipped": 0}

    def count(c):
        if c.children:
            for x in c.children:
                count(x)
        elif c.skipped:
            ours["skipped"] += 1
        elif c.ok:
            ours["passed"] += 1
        else:
            ours["failed"] += 1
    for c in top:
        count(c)
    theirs = {"passed": got.get("passed", 0), "skipped": got.get("skipped", 0),
              "failed": got.get("failed", 0) + got.get("crashed", 0)}
    note = "kunit.py: %s" % m.group(2).strip()
    if got.get("errors") or theirs != ours:
        return (name, "FAIL", "%s; ours: %s" % (note, ", ".join(
            "%s: %d" % kv for kv in sorted(ours.items()))))
    return (name, "PASS", note)


def section(lines, begin, end):
    out, inside, closed = [], False, False
    for line in lines:
        if begin in line:
            inside = True
            continue
        if end in line and inside:
            closed = True
            break
        if inside:
            out.append(line)
    return out, closed


def led_rows(report_path, variant, filtered=False):
    """Host-side LED check: cpuK's LED lit while K is busy, dark idle."""
    try:
        with open(report_path) as f:
            rep = json.load(f)
    except (OSError, ValueError):
        return [("%s/host/leds" % variant, "FAIL", "no LED samples recorded")]
    rows = []
    by_cpu = {}
    for ph in rep.get("phases", []):
        if ph.get("cpu") is None or ph["phase"] not in ("busy", "idle"):
            continue
        by_cpu.setdefault(ph["cpu"], {})[ph["phase"]] = ph
    if rep.get("error"):
        rows.append(("%s/host/leds sampling" % variant, "FAIL", rep["error"]))
    if not by_cpu:
        rows.append(("%s/host/leds" % variant, "SKIP" if filtered else "FAIL",
                     "LED test not selected (tests=)" if filtered else
                     "the guest printed no LED phases"))
    for cpu in sorted(by_cpu):
        bit = 1 << (2 + cpu)
        for phase, want_lit in (("busy", True), ("idle", False)):
            name = "%s/host/led cpu%d %s" % (variant, cpu,
                                             "lit while busy" if want_lit
                                             else "dark while idle")
            ph = by_cpu[cpu].get(phase)
            samples = [v for t, v in (ph["samples"] if ph else []) if t >= 0.2]
            if len(samples) < 5:
                rows.append((name, "FAIL", "only %d samples" % len(samples)))
                continue
            lit = sum(1 for v in samples if v & bit)
            share = lit / len(samples)
            good = share > 0.5 if want_lit else share < 0.5
            rows.append((name, "PASS" if good else "FAIL",
                         "lit in %d of %d samples" % (lit, len(samples))))
    return rows


def tree_rows(build):
    """Checks on the patched tree: the LED calls left process.c."""
    src = os.path.join(build, "linux", "arch/arm/kernel")
    rows = []
    try:
        with open(os.path.join(src, "process.c")) as f:
            proc = f.read()
        with open(os.path.join(src, "leds.c")) as f:
            leds = f.read()
    except OSError as e:
        return [("tree/arm LED idle events moved to leds.c", "FAIL", str(e))]
    rows.append(("tree/no ledtrig_cpu( call left in arch/arm/kernel/process.c",
                 "FAIL" if "ledtrig_cpu(" in proc else "PASS", ""))
    rows.append(("tree/arch/arm/kernel/leds.c registers a sched idle notifier",
                 "PASS" if "sched_idle_notifier_register(" in leds else "FAIL",
                 ""))
    return rows


def hooksite_row(build, variant):
    """The idle hook is patched code, a NOP until somebody listens."""
    vmlinux = os.path.join(build, "obj-%s" % variant, "vmlinux")
    r = subprocess.run([sys.executable, os.path.join(TOP, "ci/hooksite.py"),
                        vmlinux], capture_output=True, text=True)
    lines = (r.stdout + r.stderr).strip().splitlines()
    return ("%s/host/idle hook in do_idle() is a NOP with no listener"
            % variant, "PASS" if r.returncode == 0 else "FAIL",
            "%d sites" % len(lines) if r.returncode == 0 else
            (lines[-1] if lines else "hooksite.py failed"))


# What the host echoes of the guest's console while a check boot runs:
# the test that starts, each top-level result (with the time the guest's
# "# NAME: exit RC after S s" line gave it), and each failed case.
PROGRESS = re.compile(r"^(# running \S+|# \S+: exit \d+ after [0-9.]+ s"
                      r"|(not )?ok \d+ - .*|\s+not ok \d+ - .*)$")


def follow(b, t0, pattern=PROGRESS, label="check", verbose=False):
    """Boot the Board b, printing its console lines that match pattern (every
    line when verbose) as they arrive; return its exit status."""
    for line in b.lines():
        if verbose:
            print(line, flush=True)
        elif pattern.match(line) or line.startswith("qemu.py:"):
            print("%s: %s %5.0f s  %s" % (label, b.variant,
                                           time.monotonic() - t0,
                                           line.strip()), flush=True)
    return b.status


def run_variant(a, variant):
    out = a.out
    log = os.path.join(out, "%s.console.log" % variant)
    leds = os.path.join(out, "%s.leds.json" % variant)
    b = Board(a.build, variant, a.dtb, log, a.timeout, smp=a.smp,
              mem=a.mem, leds=leds,
              append="mode=check loglevel=3 %s" % a.append)
    print("check: booting the %s kernel (console: %s)" % (variant, log),
          flush=True)
    t0 = time.monotonic()
    status = follow(b, t0, verbose=a.verbose)
    took = time.monotonic() - t0
    a.took[variant] = took
    print("check: %s boot finished in %.0f s (status %d)" % (variant, took,
                                                              status),
          flush=True)

    with open(log, errors="replace") as f:
        lines = f.read().splitlines()
    with open(os.path.join(out, "%s.images.json" % variant), "w") as f:
        json.dump(board.images(a.build, variant, a.dtb, a.append), f,
                  indent=1)

    rows, d = [], {}
    tests, closed = section(lines, "### TESTS BEGIN", "### TESTS END")
    top, plan = parse_ktap(tests)
    for case in top:
        rows.extend((variant + "/" + n, s, note)
                    for n, s, note in leaves(case, [], d))
    a.diags.update((variant + "/" + n, v) for n, v in d.items())

    rows.append(kunit_tool_row(a, variant, tests, top))
    rows.append(("%s/host/guest ran every test and powered off" % variant,
                 "PASS" if status == 0 and closed and plan == len(top) else "FAIL",
                 board.why(status) if status else
                 ("" if closed and plan == len(top) else
                  "%d of %s test results" % (len(top), plan))))

    if not (status == 0 and closed and plan == len(top)):
        a.diags[rows[-1][0]] = [l.rstrip() for l in lines[-15:]]
    splats = [l for l in lines if SPLAT.search(l)]
    if splats:
        first = lines.index(splats[0])
        a.diags["%s/host/kernel log has no warning, oops or lockdep report"
                % variant] = [l.rstrip() for l in lines[first:first + 25]]
    rows.append(("%s/host/kernel log has no warning, oops or lockdep report"
                 % variant, "FAIL" if splats else "PASS",
                 splats[0].strip()[:120] if splats else ""))

    rows.append(shell_row(lines, "%s/host/the guest's scripts hit no shell "
                          "error (not found, syntax)" % variant))
    rows.append(hooksite_row(a.build, variant))
    rows.extend(led_rows(leds, variant, "tests=" in a.append))
    return rows, lines


def demo_rows(a, variant):
    """Boot the demo (make run's mode=demo) and check what it showed: the
    host's LED samples and the guest's timeline of each phase, and the
    picture (ci/demo.py)."""
    import demo
    out = os.path.join(a.out, "demo")
    os.makedirs(out, exist_ok=True)
    log = os.path.join(out, "console.log")
    leds = os.path.join(out, "leds.json")
    png = os.path.join(out, "demo.png")
    for f in (log, leds, png):
        if os.path.exists(f):
            os.remove(f)
    b = Board(a.build, variant, a.dtb, log, 300, smp=a.smp, mem=a.mem,
              leds=leds, append="mode=demo")
    print("check: booting the demo (%s kernel, console: %s)" % (variant, log),
          flush=True)
    status = b.run()
    name = "%s/demo/%%s" % variant
    if status:
        return [(name % "the demo ran and powered off", "FAIL",
                 b.why())]
    with open(log, errors="replace") as f:
        lines = f.read().splitlines()
    try:
        with open(leds) as f:
            rep = json.load(f)
    except (OSError, ValueError):
        rep = {"phases": []}
    bursts, idle_end, speed = demo.read_timeline(lines)
    if not bursts:
        return [(name % "the demo printed its timeline", "FAIL", "")]
    ncpus = int(a.smp)
    series = demo.led_series(rep.get("phases", []), bursts, ncpus)
    end = max(list(idle_end.values()) + [b[1] or 0 for b in bursts.values()]) + 0.1
    demo.plot(png, bursts, series, speed, ncpus, end)
    return [(name % n, "PASS" if ok else "FAIL", note) for n, ok, note in
            demo.checks(rep, bursts, idle_end, speed, series, ncpus, png)]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default="build")
    p.add_argument("--variant", action="append", required=True)
    p.add_argument("--dtb", required=True)
    p.add_argument("--smp", default=4)
    p.add_argument("--mem", default=512)
    p.add_argument("--timeout", type=float, default=1500)
    p.add_argument("--append", default="")
    p.add_argument("--out", default="build/check")
    p.add_argument("--demo", help="also boot this variant's demo and "
                   "check it (ci/demo.py)")
    p.add_argument("--verbose", action="store_true",
                   default=bool(os.environ.get("V")))
    a = p.parse_args()
    a.diags = {}
    a.took = {}
    os.makedirs(a.out, exist_ok=True)
    t0 = time.monotonic()

    rows = tree_rows(a.build)
    with open(os.path.join(a.out, "console.log"), "w") as allf:
        for v in a.variant:
            r, lines = run_variant(a, v)
            rows.extend(r)
            allf.write("===== %s =====\n" % v)
            allf.write("\n".join(lines) + "\n")
    if a.demo:
        rows.extend(demo_rows(a, a.demo))

    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump([{"name": n, "status": s, "note": t} for n, s, t in rows],
                  f, indent=1)
    failed = report(rows, a.diags)
    if "tests=" not in a.append and a.demo and len(a.variant) > 1:
        # A whole run (every test, the variants and the demo: the
        # README's make check): its figures go to the results page.
        n = dict((s, sum(1 for _, x, _ in rows if x == s))
                 for s in ("PASS", "FAIL", "SKIP"))
        results.update("make check", [
            "**make check** (%s): %d passed, %d failed, %d skipped; "
            "test boots %s%s; %.1f minutes for the boots, builds not "
            "counted.%s" % (
                results.host(), n["PASS"], n["FAIL"], n["SKIP"],
                ", ".join("%s %.1f min" % (v, t / 60)
                          for v, t in a.took.items()),
                ", and the demo" if a.demo else "",
                (time.monotonic() - t0) / 60,
                " Kernel command line: `%s`." % a.append if a.append
                else "")])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
