#!/usr/bin/env python3
"""Boot one kernel variant in mode=soak and report the soak's outcome.

The guest (initramfs/soak.sh) runs governor switches, tunable writes, CPU
hotplug, module unload/reload, bursts and idle at once for --duration
seconds, then checks the governor still ramps, and prints KTAP between
"### SOAK BEGIN" and "### SOAK END" with its counts as "# soak..." lines,
then its kernel log.  This prints the counts, a table of the cases plus the
host's own checks (the guest finished and powered off; no warning, oops,
lockdep, KASAN or kmemleak report anywhere in the console log, with the
patterns of ci/check.py), and a last line "N passed, N failed"; exits 1 if
anything failed.  The console is kept in OUT/VARIANT.console.log.
"""

import argparse
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check  # noqa: E402  (same folder: KTAP parser, SPLAT patterns, report)
from board import Board  # noqa: E402  (boot/board.py, on check's path)
import results  # noqa: E402  (ci/results.py: the results page)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default="build")
    p.add_argument("--variant", default="module")
    p.add_argument("--dtb", required=True)
    p.add_argument("--smp", default=4)
    p.add_argument("--mem", default=512)
    p.add_argument("--duration", type=int, default=180,
                   help="seconds of soak in the guest")
    p.add_argument("--seed", type=int, default=4242)
    p.add_argument("--autoload", type=int, choices=(0, 1), default=1,
                   help="0: the soak never selects interactive while its "
                   "module is unloaded (see initramfs/soak.sh)")
    p.add_argument("--out", default="build/soak")
    p.add_argument("--verbose", action="store_true",
                   default=bool(os.environ.get("V")))
    a = p.parse_args()
    if a.duration <= 0:
        p.error("--duration must be a positive number of seconds")
    os.makedirs(a.out, exist_ok=True)

    v = a.variant
    log = os.path.join(a.out, "%s.console.log" % v)
    # Boot, the soak, the checks after it: allow a slow (debug) kernel
    # plenty of time beyond the soak itself.
    b = Board(a.build, v, a.dtb, log, a.duration * 2 + 900, smp=a.smp,
              mem=a.mem,
              append="mode=soak loglevel=3 soak_duration=%d soak_seed=%d "
              "soak_autoload=%d" % (a.duration, a.seed, a.autoload))
    if b.missing():
        sys.exit("soak: %s is missing (make VARIANT=%s all)"
                 % (b.missing()[0], v))
    print("soak: %d s on the %s kernel (console: %s)" % (a.duration, v, log),
          flush=True)
    t0 = time.monotonic()
    # Print the soak's progress lines as the guest writes them.
    status = check.follow(b, t0,
                          re.compile(r"^(# soak t=.*|(not )?ok \d+ - .*)$"),
                          "soak", a.verbose)
    print("soak: boot finished in %.0f s (status %d)"
          % (time.monotonic() - t0, status), flush=True)

    with open(log, errors="replace") as f:
        lines = f.read().splitlines()
    ktap, closed = check.section(lines, "### SOAK BEGIN", "### SOAK END")
    top, plan = check.parse_ktap(ktap)
    rows = [("%s/soak/%s" % (v, c.name),
             "SKIP" if c.skipped else ("PASS" if c.ok else "FAIL"),
             c.directive) for c in top]
    rows.append(("%s/host/soak finished and the guest powered off" % v,
                 "PASS" if status == 0 and closed and plan == len(top)
                 else "FAIL",
                 b.why() if status
                 else ("" if closed and plan == len(top) else
                       "%d of %s results" % (len(top), plan))))
    splats = [l for l in lines if check.SPLAT.search(l)]
    rows.append(("%s/host/kernel log has no warning, oops or lockdep report"
                 % v, "FAIL" if splats else "PASS",
                 splats[0].strip()[:120] if splats else ""))

    rows.append(check.shell_row(lines, "%s/host/the soak's scripts hit no "
                                "shell error (not found, syntax)" % v))
    print()
    counts = [line.strip()[2:] for line in ktap
              if line.strip().startswith("# ")]
    for line in counts:
        print("# " + line)
    failed = check.report(rows)
    n = dict((s, sum(1 for _, x, _ in rows if x == s))
             for s in ("PASS", "FAIL", "SKIP"))
    results.update("make soak", [
        "**make soak** (%s): %d s on the %s kernel, seed %d, autoload %d: "
        "%d passed, %d failed, %d skipped." % (
            results.host(), a.duration, v, a.seed, a.autoload, n["PASS"],
            n["FAIL"], n["SKIP"]), ""] +
        ["    " + c for c in counts if not c.startswith("soak t=")])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
