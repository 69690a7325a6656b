#!/usr/bin/env python3
"""The governor benchmark's host side (make bench).

Boots the board once in mode=bench (initramfs/bench.sh runs every part in
initramfs/bench/), collects the parts' BENCHREC records from a second
serial port (ttyAMA1, a file on the host), analyses them and writes to OUT:

  records.txt    the raw records as the guest sent them
  console.log    the boot's console
  results.json   every record grouped by part, and the numbers below
  results.md     the table: a row per governor, median / p95 (spread) of
                 each metric, the ratios interactive/ondemand and
                 interactive/schedutil, the goals, the model, the idle
                 notifier hook cost
  tap-GOV.png, frame-GOV.png   speed against time (gnuplot)

With --analyse OUT the boot is skipped and OUT/records.txt is analysed
again.  The benchmark never fails on its numbers: the exit status is 0
when records were collected and analysed, 1 when the boot or the records
failed (with a message saying why).
"""

import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from bench_clusters import PART as CLUSTERS, analyse_clusters  # noqa: E402
from bench_model import (LEAK, SLACK, analyse_governors,  # noqa: E402
                         analyse_rtapp, die, hook_goal, hookcost_rows,
                         ledrate_rows)
from bench_records import boot, by_part, read_records  # noqa: E402
from bench_report import jsonable, plots, write_md  # noqa: E402
from bench_stats import goals, ratios, repeatability  # noqa: E402
import results  # noqa: E402  (ci/results.py: the results page)

# QEMU timing modes (--mode).  See doc/benchmark.md for the measurement
# that chose the default.
MODES = {
    # QEMU's default for an ARM guest on an x86 host: one host thread per
    # vCPU; guest time is host time.
    "mttcg": {"qemu": ["-accel", "tcg,thread=multi"], "append": ""},
    # Instruction counting: guest time advances 2^shift ns per instruction,
    # idle time is skipped (sleep=off).  One host thread for all vCPUs.
    # With 4 vCPUs it never finishes booting a NO_HZ_IDLE kernel (stuck in
    # stop_machine()), so the tick is kept running (nohz=off).
    "icount": {"qemu": ["-icount", "shift={shift},sleep=off"],
               "append": "nohz=off"},
}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default="build")
    p.add_argument("--variant", default="builtin")
    p.add_argument("--dtb", default="build/vexpress-v2p-ca9-cpufreq.dtb")
    p.add_argument("--dts", default=os.path.join(
        TOP, "dts/vexpress-v2p-ca9-cpufreq.dts"),
        help="the board DTS (OPP voltages, dynamic-power-coefficient)")
    p.add_argument("--smp", type=int, default=4)
    p.add_argument("--mem", default="512")
    p.add_argument("--out", default="build/bench")
    p.add_argument("--mode", choices=sorted(MODES), default="mttcg")
    p.add_argument("--shift", type=int, default=3,
                   help="icount shift (ns per instruction = 2^shift)")
    p.add_argument("--reps", type=int, default=5, help="runs of each cell")
    p.add_argument("--nice", type=int,
                   default=-10 if os.geteuid() == 0 else 0,
                   help="run QEMU at this nice level (default -10 as root, "
                   "else 0)")
    p.add_argument("--govs", default="", help="a,b: governors (default all six)")
    p.add_argument("--workloads", default="",
                   help="a,b: the governors part's workloads (default all)")
    p.add_argument("--parts", default="", help="a,b: bench parts (default all)")
    p.add_argument("--timeout", type=float, default=2700,
                   help="wall-clock seconds before the boot is given up")
    p.add_argument("--leak", type=float, default=LEAK,
                   help="static power at the top OPP, a fraction of its "
                   "dynamic power (default %(default)s)")
    p.add_argument("--slack", type=float, default=SLACK,
                   help="the oracle ends each burst and frame this fraction "
                   "later than the top speed would (default %(default)s)")
    p.add_argument("--analyse", action="store_true",
                   help="do not boot: analyse OUT/records.txt again")
    a = p.parse_args()
    if a.reps < 1:
        die("--reps must be at least 1")
    if not os.path.isfile(a.dts):
        die("%s: no such DTS" % a.dts)
    os.makedirs(a.out, exist_ok=True)
    meta_path = os.path.join(a.out, "boot.json")
    mode = dict(MODES[a.mode], name=a.mode)
    mode["qemu"] = [x.format(shift=a.shift) for x in mode["qemu"]]

    if a.analyse:
        try:
            meta = json.load(open(meta_path))
        except (OSError, ValueError):
            meta = {"mode": mode, "seconds": 0, "rc": None}
    else:
        load0 = os.getloadavg()
        rc, secs, append = boot(a, a.out, mode)
        mode["append"] = append
        # The host's load: other work on the host makes MTTCG noisy.
        meta = {"mode": mode, "seconds": secs, "rc": rc, "nice": a.nice,
                "date": time.strftime("%Y-%m-%d %H:%M"),
                "host_loadavg": [load0, os.getloadavg()],
                "host_cpus": os.cpu_count()}
        with open(meta_path, "w") as f:
            json.dump(meta, f, indent=1)
    data = os.path.join(a.out, "records.txt")
    if not os.path.isfile(data):
        die("no records: %s is missing (did the guest boot? see %s)"
            % (data, os.path.join(a.out, "console.log")))
    recs, problems = read_records(data)
    if meta.get("rc") not in (0, None):
        problems.insert(0, "the boot ended with status %s" % meta["rc"])
    parts = by_part(recs)
    res = {"date": meta.get("date", "?"), "mode": meta["mode"],
           "nice": meta.get("nice"),
           "boot_seconds": meta.get("seconds", 0), "problems": problems,
           "host_loadavg": meta.get("host_loadavg"),
           "host_cpus": meta.get("host_cpus"), "parts": parts}
    for r in parts.get("bench", []):
        res["kernel"] = r.get("kernel")
        for pr in r.get("parts", []):
            if pr.get("exit") != 0:
                problems.append("part %s exited %s" % (pr["name"], pr["exit"]))
    if "governors" in parts:
        g, more = analyse_governors(parts["governors"], a.dts, a.leak,
                                    a.slack)
        problems += more
        if g:
            res["governors"] = g
            res["ratios"] = ratios(g["stats"], g["oracle"])
            res["goals"] = goals(g)
            res["repeatability"] = repeatability(g["stats"])
            res["plots"], more = plots(g, parts["governors"], a.out)
            problems += more
    if "rtapp" in parts:
        res["rtapp"] = analyse_rtapp(parts["rtapp"], a.dts, a.leak)
    if "hookcost" in parts:
        res["hookcost"] = hookcost_rows(parts["hookcost"])
        hg = hook_goal(res["hookcost"])
        if hg:
            res.setdefault("goals", []).append(hg)
    if "ledrate" in parts:
        res["ledrate"] = ledrate_rows(parts["ledrate"])
    if CLUSTERS in parts:
        res["clusters"] = analyse_clusters(parts[CLUSTERS])
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(jsonable(res), f, indent=1)
    write_md(os.path.join(a.out, "results.md"), res)
    for pr in problems:
        print("bench.py: " + pr, file=sys.stderr)
    print("bench.py: wrote %s" % os.path.join(a.out, "results.md"))
    if recs and not (a.govs or a.workloads or a.parts or a.analyse):
        # A whole run: its goals go to the results page.
        results.update("make bench", [
            "**make bench** (%s): %d runs of each cell, one boot of %.0f s, "
            "QEMU mode %s; the table is in %s.  Goals:" % (
                results.host(), a.reps, meta.get("seconds", 0), a.mode,
                os.path.join(a.out, "results.md")), ""] +
            ["- %s: **%s** (%s)" % (g["goal"], "met" if g["met"] else
                                    "missed", g.get("why", ""))
             for g in res.get("goals", [])])
    if not recs:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
