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
import math
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)

# "interactive-2012" is interactive with sched_hint 0: the 2012 rule.
GOVS = ["interactive", "interactive-2012", "ondemand", "schedutil",
        "conservative", "performance", "powersave"]
RATIOS = [("interactive", "ondemand"), ("interactive", "schedutil")]

# QEMU timing modes (--mode).  See README "Benchmark" for the measurement
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

# (key, title, unit, workload) of the table's columns, in order.
COLUMNS = [
    ("tap_request_hispeed_ms", "tap→hispeed requested", "ms", "tap"),
    ("tap_hispeed_ms", "tap→hispeed", "ms", "tap"),
    ("tap_max_ms", "tap→max", "ms", "tap"),
    ("tap_completion_ms", "tap work done", "ms", "tap"),
    ("tap_energy_mj", "tap energy", "mJ", "tap"),
    ("frame_missed", "frames missed", "per run", "frame"),
    ("frame_time_ms", "frame work done", "ms", "frame"),
    ("frame_energy_mj", "frame energy", "mJ per run", "frame"),
    ("frame_scaled_missed", "scaled frames missed", "per run", "frame_scaled"),
    ("frame_scaled_time_ms", "scaled frame work done", "ms", "frame_scaled"),
    ("frame_scaled_energy_mj", "scaled frame energy", "mJ per run",
     "frame_scaled"),
    ("tap_hold_ms", "tap: held above min, all idle", "ms per run", "tap"),
    ("tap_total_mj", "tap energy + held", "mJ per run", "tap"),
    ("frame_hold_ms", "frame: held", "ms per run", "frame"),
    ("frame_total_mj", "frame energy + held", "mJ per run", "frame"),
    ("frame_scaled_hold_ms", "scaled frame: held", "ms per run",
     "frame_scaled"),
    ("frame_scaled_total_mj", "scaled frame energy + held", "mJ per run",
     "frame_scaled"),
    ("idle_wakeups_per_s", "idle wakeups", "per s", "idle"),
    ("idle_min_wakeups_per_s", "idle wakeups at the minimum", "per s",
     "idle"),
    ("idle_deferred_per_s", "idle deferred runs", "per s", "idle"),
    ("idle_hold_ms", "idle: held above min", "ms per run", "idle"),
]

# The static (leakage) power of a CPU at an OPP: LEAK (a fraction) of the
# top OPP's dynamic power at the top OPP's voltage, scaled by (V/Vtop)^3
# (leakage current grows about as V^2; power is that times V).  A CPU that
# idles in WFI keeps its policy's voltage and leaks at it: a governor that
# holds a high speed while the board sleeps pays for it.
LEAK = 0.2
# The oracle finishes each burst and frame this much later than the top
# speed would (performance), at the lowest energy.
SLACK = 0.1

# Governor callbacks that cannot wake a CPU: interactive's sampling timer
# is deferrable, it runs only in an interrupt that woke the CPU for
# something else.  Counted apart from the wakeups.
DEFERRED_FNS = {"interactive_timer"}


def die(msg):
    sys.exit("bench.py: " + msg)


# ---------------------------------------------------------------- records

def read_records(path):
    """Records of the data port file: (records, problems)."""
    recs, problems = [], []
    begun = ended = False
    want = None
    with open(path, "rb") as f:
        for n, raw in enumerate(f, 1):
            line = raw.decode(errors="replace").strip("\r\n")
            if line.startswith("### BENCH BEGIN"):
                begun = True
                continue
            m = re.match(r"### BENCH END records=(\d+)", line)
            if m:
                ended, want = True, int(m.group(1))
                continue
            if not line.startswith("BENCHREC "):
                if line.strip():
                    problems.append("line %d: not a record: %.60s" % (n, line))
                continue
            try:
                r = json.loads(line[len("BENCHREC "):])
            except ValueError as e:
                problems.append("line %d: bad JSON (%s)" % (n, e))
                continue
            if not isinstance(r, dict) or "part" not in r:
                problems.append("line %d: record without \"part\"" % n)
                continue
            recs.append(r)
    if not begun:
        problems.append("no '### BENCH BEGIN': the guest never started bench.sh")
    if not ended:
        problems.append("no '### BENCH END': the guest stopped early")
    elif want != len(recs):
        problems.append("guest sent %d records, %d were read" % (want, len(recs)))
    return recs, problems


def by_part(recs):
    out = {}
    for r in recs:
        out.setdefault(r["part"], []).append(r)
    return out


# ------------------------------------------------------------- statistics

def percentile(values, p):
    """Nearest-rank percentile; None stands for 'never' (sorts last)."""
    if not values:
        return None
    v = sorted(values, key=lambda x: math.inf if x is None else x)
    k = max(0, math.ceil(p / 100.0 * len(v)) - 1)
    return v[k]


def median(values):
    if not values:
        return None
    v = sorted(values, key=lambda x: math.inf if x is None else x)
    n = len(v)
    if n % 2:
        return v[n // 2]
    a, b = v[n // 2 - 1], v[n // 2]
    return None if a is None or b is None else (a + b) / 2.0


def summarise(samples, runs):
    """samples: every value; runs: the values of each run (list of lists)."""
    run_medians = [median(r) for r in runs if r]
    finite = [m for m in run_medians if m is not None]
    spread = (max(finite) - min(finite)) if len(finite) == len(run_medians) \
        and finite else None
    return {"n": len(samples), "runs": len(run_medians),
            "never": sum(1 for s in samples if s is None),
            "median": median(samples), "p95": percentile(samples, 95),
            "spread": spread, "run_medians": run_medians}


# ------------------------------------------------------------ energy model

def parse_dts(path):
    """OPPs (kHz -> uV) and dynamic-power-coefficient of the board's DTS."""
    text = open(path).read()
    opps = {}
    for m in re.finditer(r"opp-hz\s*=\s*/bits/\s*64\s*<(\d+)>;\s*"
                         r"opp-microvolt\s*=\s*<(\d+)>;", text):
        opps[int(m.group(1)) // 1000] = int(m.group(2))
    caps = set(int(c) for c in re.findall(
        r"dynamic-power-coefficient\s*=\s*<(\d+)>", text))
    if not opps:
        die("%s: no OPP with opp-hz and opp-microvolt" % path)
    if len(caps) != 1:
        die("%s: want one dynamic-power-coefficient, found %s" % (path, caps))
    return opps, caps.pop()


def em_table(opps, cap):
    """Power (uW) per OPP, the kernel's formula (drivers/opp/of.c)."""
    return {khz: cap * (uv // 1000) ** 2 * (khz // 1000) // 1000000
            for khz, uv in opps.items()}


def leak_table(opps, dyn, leak):
    """Static power (uW) of one CPU per OPP (see LEAK)."""
    top = max(opps)
    return {khz: leak * dyn[top] * (uv / opps[top]) ** 3
            for khz, uv in opps.items()}


def oracle_energy(cycles_s, fmax, power, slack):
    """The least energy (J) to run cycles_s seconds of work at fmax within
    cycles_s * (1 + slack) seconds, with the OPPs of power (busy power, uW,
    dynamic + static): one OPP, or the two around the needed average speed
    shared so that the work ends at the deadline.  Afterwards the CPU idles
    at the minimum, which every schedule pays alike (not counted)."""
    work = cycles_s * fmax
    deadline = cycles_s * (1 + slack)
    need = work / deadline
    opps = sorted(power)
    best = min(power[f] * 1e-6 * work / f for f in opps if f >= need)
    lo = [f for f in opps if f < need]
    hi = [f for f in opps if f >= need]
    if lo and hi:
        flo, fhi = lo[-1], hi[0]
        t_hi = (work - flo * deadline) / (fhi - flo)
        t_lo = deadline - t_hi
        best = min(best, (power[flo] * t_lo + power[fhi] * t_hi) * 1e-6)
    return best


def oracle_rows(fmax, power, slack, work):
    """Energy per run (mJ) of the oracle, per workload: each burst or frame
    on its own (work: workload -> (items a run, seconds of work at fmax of
    each), from the cells)."""
    return {w + "_total_mj": n * oracle_energy(secs, fmax, power, slack) * 1000
            for w, (n, secs) in work.items()}


# ------------------------------------------------------------ trace model

class Speed:
    """The policy's speed as a step function of guest time."""

    def __init__(self, f0, events):
        self.f0 = f0
        self.ev = sorted((t, k) for t, k in events)

    def at(self, t):
        f = self.f0
        for te, k in self.ev:
            if te > t:
                break
            f = k
        return f

    def first_at_least(self, t0, khz, t_end):
        """First time in [t0, t_end] the speed is >= khz, or None."""
        if self.at(t0) >= khz:
            return t0
        for te, k in self.ev:
            if t0 < te <= t_end and k >= khz:
                return te
        return None

    def changes(self, a, b):
        return [te for te, _ in self.ev if a < te < b]


def run_work(speed, busy, start, cycles_s, fmax, power):
    """Model a fixed amount of work (cycles_s seconds at fmax) started at
    start: the CPU runs at the recorded speed while the guest was busy
    (busy = (s, e) of the guest's own busy stretch), and at the speed the
    stretch ended with once the guest went idle (a governor would have seen
    the CPU still busy).  Returns (finish time, energy in J)."""
    s, e = busy
    t, left, energy = start, cycles_s * fmax, 0.0
    while True:
        if t < e:
            f = speed.at(t)
            nxt = min(speed.changes(t, e) + [e])
        else:
            f, nxt = speed.at(e), math.inf
        p = power_of(power, f) * 1e-6
        if f * (nxt - t) >= left:
            energy += p * left / f
            t += left / f
            break
        left -= f * (nxt - t)
        energy += p * (nxt - t)
        t = nxt
    return t, energy


def power_of(power, khz):
    if khz in power:
        return power[khz]
    die("speed %d kHz is not an OPP of the DTS (%s)" % (khz, sorted(power)))


def held(c, board, leak):
    """(ms all the policy's CPUs idled above the minimum speed, mJ of static
    power that cost over idling at the minimum), or None without the
    record's allidle (an older guest)."""
    if "allidle" not in c:
        return None
    fmin, ncpu = board["min_khz"], len(board["policy_cpus"])
    ms = mj = 0.0
    for k, secs in c["allidle"].items():
        k = int(k)
        if k > fmin:
            ms += secs * 1000
        mj += secs * ncpu * (leak.get(k, leak[fmin]) - leak[fmin]) * 1e-3
    return ms, mj


def analyse_cell(c, board, power, leak):
    """Metrics of one cell (one run of one workload under one governor);
    "work": (bursts or frames, seconds of work at max of each)."""
    fmax = board["max_khz"]
    hispeed = board["hispeed_khz"]
    speed = Speed(c["f0"], [(t, k) for t, k in c["freq"]])
    clk = board.get("cpu_clock")
    req = Speed(c["f0"], [(t, k) for t, k, name in c["req"]
                          if clk is None or name == clk])
    for _, k in speed.ev:
        power_of(power, k)
    marks = c["marks"]
    out = {}
    h = held(c, board, leak)
    wl = dict(kv.split("=", 1) for kv in c["wl"].split()[2:] if "=" in kv)

    def pairs(name):
        starts = {m[3]: m for m in marks if m[1] == name + "_start"}
        ends = {m[3]: m for m in marks if m[1] == name + "_end"}
        return [(starts[k][0], ends[k][0], starts[k][2])
                for k in sorted(starts) if k in ends]

    if c["workload"] == "tap":
        bursts = pairs("tap")
        burst_s = int(wl["burst_ms"]) / 1000.0
        for key in ("tap_request_hispeed_ms", "tap_hispeed_ms", "tap_max_ms",
                    "tap_completion_ms", "tap_energy_mj"):
            out[key] = []
        for s, e, _ in bursts:
            for key, sp, khz in (("tap_request_hispeed_ms", req, hispeed),
                                 ("tap_hispeed_ms", speed, hispeed),
                                 ("tap_max_ms", speed, fmax)):
                t = sp.first_at_least(s, khz, e)
                out[key].append(None if t is None else (t - s) * 1000)
            if c.get("eval") is not None and \
                    c["gov"].startswith("interactive"):
                # interactive's first decision to go to hispeed or above
                # (a window's "raise", or a "hint" at the idle exit)
                ts = [x[0] for x in c["eval"] if s <= x[0] <= e
                      and x[4] in ("raise", "hint") and x[3] >= hispeed]
                out.setdefault("tap_decision_ms", []).append(
                    (ts[0] - s) * 1000 if ts else
                    (0.0 if speed.at(s) >= hispeed else None))
            done, energy = run_work(speed, (s, e), s, burst_s, fmax, power)
            out["tap_completion_ms"].append((done - s) * 1000)
            out["tap_energy_mj"].append(energy * 1000)
        out["work"] = (len(bursts), burst_s)
        if h:
            out["tap_hold_ms"] = [h[0]]
            out["tap_total_mj"] = [sum(out["tap_energy_mj"]) + h[1]]
    elif c["workload"] in ("frame", "frame_scaled"):
        w = c["workload"]
        frames = pairs("frame")
        period = int(wl["period_us"]) / 1e6
        work = board["work_us"] / 1e6
        times, energy, missed = [], 0.0, 0
        for s, e, _ in frames:
            done, en = run_work(speed, (s, e), s, work, fmax, power)
            times.append((done - s) * 1000)
            energy += en
            missed += (done - s) > period
        out[w + "_time_ms"] = times
        out[w + "_missed"] = [missed]
        out[w + "_energy_mj"] = [energy * 1000]
        out["frames"] = len(frames)
        out["work"] = (len(frames), work)
        if h:
            out[w + "_hold_ms"] = [h[0]]
            out[w + "_total_mj"] = [energy * 1000 + h[1]]
    elif c["workload"] == "idle":
        st = [m[0] for m in marks if m[1] == "idle_start"]
        en = [m[0] for m in marks if m[1] == "idle_end"]
        if st and en:
            a, b = st[0], en[0]
            w = [x for x in c["wake"] if a <= x[0] <= b]
            d = [x for x in w if x[2] in DEFERRED_FNS]
            out["idle_wakeups_per_s"] = [(len(w) - len(d)) / (b - a)]
            # The goal's: while the policy was at its minimum (not the
            # slack timer that lowers a speed raised before the window).
            fmin = board["min_khz"]
            m = [x for x in w if x not in d and speed.at(x[0]) <= fmin]
            out["idle_min_wakeups_per_s"] = [len(m) / (b - a)]
            out["idle_deferred_per_s"] = [len(d) / (b - a)]
            fns = {}
            for x in w:
                fns[x[2]] = fns.get(x[2], 0) + 1
            out["idle_wakeup_functions"] = fns
        if h:
            out["idle_hold_ms"] = [h[0]]
    return out


def analyse_governors(recs, dts, leak_frac=LEAK, slack=SLACK):
    """The governors part: per governor, per metric, median/p95/spread."""
    boards = [r for r in recs if r.get("kind") == "board"]
    if not boards:
        return None, ["governors: no board record"]
    board = dict(boards[0])
    problems = []
    board["hispeed_khz"] = int(board["interactive"]["hispeed_freq"])
    board["timer_rate_us"] = int(board["interactive"]["timer_rate"])
    opps, cap = parse_dts(dts)
    power = em_table(opps, cap)
    leak = leak_table(opps, power, leak_frac)
    busy = {k: power[k] + leak[k] for k in power}
    guest_em = {e["khz"]: e["power_uw"] for e in board.get("em", [])}
    if guest_em and guest_em != power:
        problems.append("the guest's energy model %s differs from the DTS's %s"
                        % (guest_em, power))
    # The CPU clock: the clock whose requested rates are OPPs.
    names = {}
    cells = [r for r in recs if r.get("kind") == "cell"]
    for c in cells:
        for _, k, name in c["req"]:
            if k in power:
                names[name] = names.get(name, 0) + 1
    board["cpu_clock"] = max(names, key=names.get) if names else None

    gov_data = {}
    work = {}
    for c in cells:
        m = analyse_cell(c, board, busy, leak)
        if "work" in m:
            work[c["workload"]] = max(work.get(c["workload"], (0, 0)),
                                      m["work"])
        g = gov_data.setdefault(c["gov"], {})
        for key, vals in m.items():
            if isinstance(vals, list):
                g.setdefault(key, []).append(vals)
            elif key == "idle_wakeup_functions":
                acc = g.setdefault("idle_wakeup_functions", {})
                for fn, n in vals.items():
                    acc[fn] = acc.get(fn, 0) + n
            elif key == "frames":
                g.setdefault("frames_per_run", []).append(vals)
    stats = {}
    for gov, g in gov_data.items():
        stats[gov] = {}
        for key, runs in g.items():
            if key in ("idle_wakeup_functions", "frames_per_run"):
                stats[gov][key] = runs
                continue
            samples = [v for r in runs for v in r]
            stats[gov][key] = summarise(samples, runs)
    model = {
        "power_uw": {str(k): v for k, v in sorted(power.items())},
        "static_uw": {str(k): round(v) for k, v in sorted(leak.items())},
        "leak": leak_frac, "slack": slack,
        "opp_microvolt": {str(k): v for k, v in sorted(opps.items())},
        "dynamic_power_coefficient": cap,
        "formula": "P[uW] = C * V[mV]^2 * f[MHz] / 10^6 (drivers/opp/of.c)",
    }
    return {"board": board, "model": model, "stats": stats,
            "oracle": oracle_rows(board["max_khz"], busy, slack, work),
            "cells": len(cells)}, problems


def repeatability(stats):
    """How well runs repeat: spread of the run medians over the median, for
    every governor and metric whose median is finite and non-zero."""
    rel = []
    for gov, st in stats.items():
        for key, _, _, _ in COLUMNS:
            x = st.get(key)
            if not x or x["runs"] < 2 or x["spread"] is None or \
                    not x["median"]:
                continue
            rel.append((x["spread"] / abs(x["median"]), gov, key))
    if not rel:
        return None
    rel.sort()
    return {"n": len(rel), "median_rel_spread": median([r[0] for r in rel]),
            "p95_rel_spread": percentile([r[0] for r in rel], 95),
            "worst": [{"rel_spread": r, "gov": g, "metric": k}
                      for r, g, k in rel[-3:][::-1]]}


def ratio(a, b):
    if a is None or b is None:
        return None
    if b == 0:
        return None if a == 0 else math.inf
    return a / b


def ratios(stats, oracle=None):
    out = {}
    if oracle and "interactive" in stats:
        row = {}
        for key, val in oracle.items():
            a = stats["interactive"].get(key)
            if a:
                row[key] = {"median": ratio(a["median"], val),
                            "p95": ratio(a["p95"], val)}
        out["interactive/oracle"] = row
    for num, den in RATIOS:
        if num not in stats or den not in stats:
            continue
        row = {}
        for key, _, _, _ in COLUMNS:
            a, b = stats[num].get(key), stats[den].get(key)
            if a and b:
                row[key] = {"median": ratio(a["median"], b["median"]),
                            "p95": ratio(a["p95"], b["p95"])}
        out["%s/%s" % (num, den)] = row
    return out


def stat(st, gov, key, which):
    x = st.get(gov, {}).get(key)
    return x[which] if x else None


def goals(g):
    """The issue's goals, checked against the numbers; "why" gives the
    numbers that explain a miss (or qualify a hit)."""
    st, board = g["stats"], g["board"]
    out = []
    tick_ms = 1000.0 / board["hz"] if board.get("hz") else None
    if "interactive" in st and tick_ms:
        # The timing contract: a window lasts timer_rate to timer_rate
        # and a tick, and a tick for the change (as 24-interactive-trials).
        bound = board["timer_rate_us"] / 1000.0 + 2 * tick_ms
        p95 = stat(st, "interactive", "tap_hispeed_ms", "p95")
        dec = stat(st, "interactive", "tap_decision_ms", "p95")
        req = stat(st, "interactive", "tap_request_hispeed_ms", "p95")
        met = p95 is not None and p95 <= bound
        dec = fmt(dec) + " ms" if "tap_decision_ms" in st["interactive"] \
            else "n/a (no cpufreq_interactive_eval events)"
        why = ("p95 from the burst's start to interactive's raise decision "
               "%s, to the driver's request (clk_set_rate) %s ms, to the "
               "landed speed (cpu_frequency) %s ms" % (dec, fmt(req),
                                                       fmt(p95)))
        if not met and req is not None and req <= bound:
            why += ("; the request is in time, the rest is the speed "
                    "change: the raising thread's wakeup on another "
                    "emulated CPU and the oscillator writes over the "
                    "Versatile Express config bus, which the host's "
                    "scheduling of QEMU's threads stretches")
        out.append({"goal": "interactive p95 tap→hispeed ≤ timer_rate + 2 ticks "
                            "(%s ms)" % fmt(bound, 0),
                    "value": p95, "met": met, "why": why})
    if "interactive" in st and "schedutil" in st:
        a = stat(st, "interactive", "tap_hispeed_ms", "p95")
        b = stat(st, "schedutil", "tap_hispeed_ms", "p95")
        met = a is not None and (b is None or a <= 0.5 * b)
        ra = stat(st, "interactive", "tap_request_hispeed_ms", "p95")
        rb = stat(st, "schedutil", "tap_request_hispeed_ms", "p95")
        mb = stat(st, "schedutil", "tap_request_hispeed_ms", "median")
        why = ("landed p95 %s vs %s ms; requested p95 %s vs %s ms (ratio %s)"
               % (fmt(a), fmt(b), fmt(ra), fmt(rb), fmt(ratio(ra, rb), 2)))
        if mb is not None and mb < tick_ms:
            why += ("; schedutil's median request comes %s ms after the "
                    "start: it raises the speed when the task wakes, from "
                    "the task's remembered utilization (util_est of its "
                    "previous burst)" % fmt(mb))
        out.append({"goal": "interactive p95 tap→hispeed ≤ 0.5 × schedutil's",
                    "value": ratio(a, b), "met": met, "why": why})
    if "interactive" in st and "ondemand" in st and \
            "frame_total_mj" not in st["interactive"]:
        # An older guest (no cpu_idle record): the work's energy only.
        a = stat(st, "interactive", "frame_energy_mj", "median")
        b = stat(st, "ondemand", "frame_energy_mj", "median")
        ma = stat(st, "interactive", "frame_missed", "median")
        mb = stat(st, "ondemand", "frame_missed", "median")
        n = median([x for x in st["interactive"].get("frames_per_run", [])])
        met = a is not None and b is not None and a <= b
        why = ("median energy %s vs %s mJ a run; frames missed %s vs %s of "
               "%s" % (fmt(a), fmt(b), fmt(ma), fmt(mb), fmt(n, 0)))
        sa = stat(st, "interactive", "frame_scaled_energy_mj", "median")
        sb = stat(st, "ondemand", "frame_scaled_energy_mj", "median")
        if sa is not None and sb is not None:
            why += ("; with the work scaled by the speed in the guest "
                    "(frame_scaled, closed loop) %s vs %s mJ, frames missed "
                    "%s vs %s" % (
                        fmt(sa), fmt(sb),
                        fmt(stat(st, "interactive", "frame_scaled_missed",
                                 "median")),
                        fmt(stat(st, "ondemand", "frame_scaled_missed",
                                 "median"))))
        out.append({"goal": "interactive modelled energy on frame ≤ ondemand's "
                            "(median)",
                    "value": ratio(a, b), "met": met, "why": why})
    if "interactive" in st and "schedutil" in st:
        a = stat(st, "interactive", "tap_hispeed_ms", "median")
        b = stat(st, "schedutil", "tap_hispeed_ms", "median")
        out.append({"goal": "interactive median tap→hispeed ≤ schedutil's",
                    "value": ratio(a, b),
                    "met": a is not None and b is not None and a <= b,
                    "why": "%s vs %s ms" % (fmt(a), fmt(b))})
    key = "frame_scaled_total_mj"
    if "interactive" in st and key in st["interactive"]:
        a = stat(st, "interactive", key, "median")
        ma = stat(st, "interactive", "frame_scaled_missed", "median")
        mo = stat(st, "ondemand", "frame_scaled_missed", "median")
        others = [(gv, stat(st, gv, key, "median"),
                   stat(st, gv, "frame_scaled_missed", "median"))
                  for gv in GOVS
                  if not gv.startswith("interactive") and gv in st]
        rivals = [(gv, e) for gv, e, m in others
                  if e is not None and (mo is None or m is None or m <= mo)]
        met = (a is not None and all(a <= e for _, e in rivals) and
               (mo is None or ma is None or ma <= mo))
        out.append({"goal": "interactive closed-loop (frame_scaled) energy + "
                            "held ≤ every governor's that misses no more "
                            "frames than ondemand, missing no more itself",
                    "value": ratio(a, min([e for _, e in rivals] or [None])),
                    "met": met,
                    "why": "%s mJ, %s missed; %s" % (
                        fmt(a), fmt(ma), ", ".join(
                            "%s %s mJ (%s missed)" % (gv, fmt(e), fmt(m))
                            for gv, e, m in others))})
    key = "frame_total_mj"
    if "interactive" in st and "ondemand" in st and key in st["interactive"]:
        a = stat(st, "interactive", key, "median")
        b = stat(st, "ondemand", key, "median")
        out.append({"goal": "interactive open-loop (frame) energy + held ≤ "
                            "ondemand's",
                    "value": ratio(a, b),
                    "met": a is not None and b is not None and a <= b,
                    "why": "%s vs %s mJ; frames missed %s vs %s" % (
                        fmt(a), fmt(b),
                        fmt(stat(st, "interactive", "frame_missed", "median")),
                        fmt(stat(st, "ondemand", "frame_missed", "median")))})
    orc = g.get("oracle", {})
    for key, val in sorted(orc.items()):
        a = stat(st, "interactive", key, "median")
        if a is None:
            continue
        w = key[:-len("_total_mj")]
        out.append({"goal": "interactive %s energy + held ≤ 1.2 × the oracle's"
                            % w,
                    "value": ratio(a, val), "met": a <= 1.2 * val,
                    "why": "%s vs %s mJ a run; held above the minimum %s ms "
                           "a run" % (fmt(a), fmt(val), fmt(
                               stat(st, "interactive", w + "_hold_ms",
                                    "median")))})
    key = "idle_min_wakeups_per_s"
    if "interactive" in st and key in st["interactive"]:
        worst = max(v for v in st["interactive"][key]["run_medians"])
        every = max(v for v in
                    st["interactive"]["idle_wakeups_per_s"]["run_medians"])
        fns = st["interactive"].get("idle_wakeup_functions", {})
        out.append({"goal": "interactive: 0 governor wakeups/s on an idle "
                            "board at the minimum (every run)",
                    "value": worst, "met": worst == 0,
                    "why": "all callbacks during idle, at any speed (worst "
                    "run %s/s): %s" % (fmt(every, 2), ", ".join(
                        "%s %d" % kv for kv in sorted(fns.items())) or
                        "none")})
    return out


# ------------------------------------------------------------------ rtapp

def stretch(speed, a, b, fmax):
    """Seconds that the guest's [a, b] of work at the top speed takes at
    the recorded speeds: each piece at f lasts fmax / f times as long."""
    t, out = a, 0.0
    for te in speed.changes(a, b) + [b]:
        out += (te - t) * fmax / speed.at(t)
        t = te
    return out


def analyse_rtapp(recs, dts, leak_frac=LEAK):
    """The rtapp part (initramfs/bench/20-rtapp.sh).  The guest plays each
    workload at one speed; each busy CPU-second is a second of work at the
    top speed, which at speed f takes fmax / f seconds at P(f), dynamic and
    static (energy, mJ a run, with the static power the policy held above
    the minimum while idle).  A loop is late when its run, stretched by the
    speeds of the recorded schedule from its start, outlasts its slack: to
    its timer's deadline as rt-app measured it, or else the loop's own
    waits (its length less its run), which a longer run would eat into
    before the next loop is due.  Per workload and governor: medians over
    the runs."""
    opps, cap = parse_dts(dts)
    power = em_table(opps, cap)
    leak = leak_table(opps, power, leak_frac)
    fmax, fmin = max(opps), min(opps)
    runs = {}
    for c in recs:
        if c.get("kind") != "cell" or c.get("t0") is None:
            continue
        speed = Speed(c["f0"], [(t, k) for t, k in c["freq"]])
        energy = sum(secs * fmax / int(k) * (power_of(power, int(k)) +
                                             leak[int(k)])
                     for k, secs in c["busy"].items()) * 1e-3
        held_ms = sum(secs for k, secs in c["allidle"].items()
                      if int(k) > fmin) * 1000
        energy += sum(secs * c["ncpu"] * (leak[int(k)] - leak[fmin])
                      for k, secs in c["allidle"].items()) * 1e-3
        loops = late = 0
        worst = None
        for rows in c["threads"].values():
            for start_us, run_us, slack_us, c_period, period_us in rows:
                if run_us <= 0 or period_us <= 0:
                    continue
                a = start_us * 1e-6
                extra = stretch(speed, a, a + run_us * 1e-6, fmax) - \
                    run_us * 1e-6
                # A timer's loop: the slack rt-app measured to its
                # deadline; any other: the loop's own waits, which the
                # stretched run may take up before the next loop is due.
                if c_period > 0:
                    slack = slack_us * 1e-6 - extra
                else:
                    slack = (period_us - run_us) * 1e-6 - extra
                loops += 1
                late += slack < 0
                worst = slack if worst is None else min(worst, slack)
        top = speed.first_at_least(c["t0"], fmax, c["t1"])
        m = {"energy_mj": energy, "held_ms": held_ms, "loops": loops,
             "late": late,
             "worst_slack_ms": None if worst is None else worst * 1000,
             "to_max_ms": None if top is None else (top - c["t0"]) * 1000}
        runs.setdefault(c["workload"], {}).setdefault(c["gov"], []).append(m)
    table = {}
    for w, govs in runs.items():
        for g, ms in govs.items():
            row = {"runs": len(ms)}
            for key in ("energy_mj", "held_ms", "loops", "late",
                        "worst_slack_ms", "to_max_ms"):
                vals = [m[key] for m in ms if m[key] is not None]
                row[key] = median(vals) if vals else None
            row["to_max_never"] = sum(m["to_max_ms"] is None for m in ms)
            table.setdefault(w, {})[g] = row
    return table


# --------------------------------------------------------------- hookcost

def hookcost_rows(recs):
    """Hook cost records: a row per (metric, listeners)."""
    base = {}
    rows = []
    for r in recs:
        vals = [v for v in r.get("values", []) if isinstance(v, (int, float))]
        row = {"metric": r.get("metric"), "listeners": r.get("listeners"),
               "gov": r.get("gov"),
               "added": bool(r.get("added")), "unit": r.get("unit", ""),
               "n": len(vals), "median": median(vals),
               "p95": percentile(vals, 95),
               "spread": (max(vals) - min(vals)) if vals else None}
        rows.append(row)
        if r.get("listeners") == 0:
            base[r.get("metric")] = row["median"]
    for row in rows:
        row["ratio_to_0"] = ratio(row["median"], base.get(row["metric"]))
    rows.sort(key=lambda x: (str(x["metric"]), x["listeners"] or 0,
                             str(x["gov"])))
    return rows


def hook_goal(rows):
    """interactive's idle listener with sched_hint against without it
    (the 2012 rule, today's listener before the hint): each one's cost
    is its round trip less performance's (not listening)."""
    rt = {r["gov"]: r["median"] for r in rows
          if r["metric"] == "gov_round_trip_ns" and r["gov"]}
    p, a, b = (rt.get(k) for k in ("performance", "interactive",
                                   "interactive-2012"))
    if None in (p, a, b):
        return None
    ca, cb = a - p, b - p
    # Below the noise (the listener costs nothing measurable either way):
    # compare the round trips themselves.
    r = ratio(ca, cb) if cb > 0 else ratio(a, b)
    return {"goal": "interactive's idle listener with sched_hint ≤ 1.2 × "
                    "without (per round trip, over performance's)",
            "value": r, "met": r is not None and r <= 1.2,
            "why": "round trips (two idle periods) %s / %s / %s ns with "
                   "sched_hint 1 / 0 / performance: %s vs %s ns of "
                   "listener" % (fmt(a), fmt(b), fmt(p), fmt(ca), fmt(cb))}


# ---------------------------------------------------------------- ledrate

def ledrate_rows(recs):
    """LED writes per second, notifier against stock 6.1, per phase."""
    rows = []
    for r in recs:
        secs = r.get("seconds") or 0
        n, m = r.get("notifier_writes"), r.get("stock_writes")
        if not secs or n is None or m is None:
            continue
        rows.append({"phase": r.get("phase"), "seconds": secs,
                     "notifier_per_s": n / secs, "stock_per_s": m / secs,
                     "ratio": ratio(n, m),
                     "cpuidle_driver": r.get("cpuidle_driver")})
    return rows


# ------------------------------------------------------------------ output

def fmt(v, digits=1):
    if v is None:
        return "never"
    if v == math.inf:
        return "∞"
    if isinstance(v, int) or float(v).is_integer() and abs(v) >= 100:
        return "%d" % v
    return "%.*f" % (digits, v)


def cell_text(s):
    if not s:
        return "–"
    t = "%s / %s" % (fmt(s["median"]), fmt(s["p95"]))
    if s["spread"] is not None and s["runs"] > 1:
        t += " (±%s)" % fmt(s["spread"] / 2)
    if s["never"]:
        t += " [%d never]" % s["never"]
    return t


def jsonable(o):
    if isinstance(o, float) and (math.isinf(o) or math.isnan(o)):
        return None
    if isinstance(o, dict):
        return {k: jsonable(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [jsonable(v) for v in o]
    return o


def write_md(path, res):
    g = res.get("governors")
    L = ["# Governor benchmark", ""]
    L.append("Generated by `make bench` (ci/bench.py) from a boot of %s; "
             "kernel %s; QEMU mode **%s** (`%s`, kernel command line `%s`); %s cells "
             "in one boot of %.0f s."
             % (res["date"], res.get("kernel", "?"), res["mode"]["name"],
                " ".join(res["mode"]["qemu"]), res["mode"]["append"],
                g["cells"] if g else 0, res.get("boot_seconds", 0)))
    if res.get("host_loadavg"):
        (a1, a5, a15), (b1, b5, b15) = res["host_loadavg"]
        L.append("Host: %s CPUs, load average %.1f / %.1f / %.1f before the "
                 "boot, %.1f / %.1f / %.1f after (other work on the host "
                 "makes the guest's timing noisy); QEMU ran at nice %s."
                 % (res.get("host_cpus"), a1, a5, a15, b1, b5, b15,
                    res.get("nice")))
    L.append("")
    if res["problems"]:
        L.append("**Problems:** " + "; ".join(res["problems"]))
        L.append("")
    if g:
        b = g["board"]
        L.append("Each cell: **median / p95 (± half the spread of the run "
                 "medians)** over every sample of every run (%s runs per "
                 "governor, interleaved); *never*: the speed was not reached "
                 "during the burst.  hispeed = %d MHz (interactive's "
                 "hispeed_freq), max = %d MHz, timer_rate = %d ms, tick = "
                 "%s ms."
                 % (b.get("reps"), b["hispeed_khz"] // 1000,
                    b["max_khz"] // 1000, b["timer_rate_us"] // 1000,
                    fmt(1000.0 / b["hz"], 0) if b.get("hz") else "?"))
        L.append("")
        head = ["governor"] + ["%s (%s)" % (t, u) for _, t, u, _ in COLUMNS]
        L.append("| " + " | ".join(head) + " |")
        L.append("|" + "---|" * len(head))
        order = [x for x in GOVS if x in g["stats"]] + \
            sorted(x for x in g["stats"] if x not in GOVS)
        for gov in order:
            st = g["stats"][gov]
            L.append("| " + " | ".join(
                [gov] + [cell_text(st.get(k)) for k, _, _, _ in COLUMNS]) + " |")
        orc = g.get("oracle", {})
        if orc:
            L.append("| *oracle* | " + " | ".join(
                fmt(orc[k]) if k in orc else "–"
                for k, _, _, _ in COLUMNS) + " |")
        for name, row in res["ratios"].items():
            cells = []
            for k, _, _, _ in COLUMNS:
                r = row.get(k)
                cells.append("%s / %s" % (fmt(r["median"], 2), fmt(r["p95"], 2))
                             if r else "–")
            L.append("| **%s** | " % name + " | ".join(cells) + " |")
        L.append("")
        L.append("Ratio rows: median ratio / p95 ratio (below 1: interactive "
                 "is lower).  *oracle*: the least energy that finishes each "
                 "burst and frame within %d %% of the time the top speed "
                 "takes, computed from the OPPs (see the model below)."
                 % round(100 * g["model"]["slack"]))
        L.append("")
        rp = res.get("repeatability")
        if rp:
            L.append("Repeatability: the spread of the run medians is %.1f %% "
                     "of the median for the median governor × metric, %.1f %% "
                     "at the 95th percentile (%d pairs; worst: %s)."
                     % (100 * rp["median_rel_spread"], 100 * rp["p95_rel_spread"],
                        rp["n"], ", ".join("%s %s %.0f %%" % (
                            w["gov"], w["metric"], 100 * w["rel_spread"])
                            for w in rp["worst"])))
            L.append("")
        L.append("## Goals")
        L.append("")
        for x in res["goals"]:
            v = x["value"]
            L.append("- %s: **%s** (%s)%s" % (
                x["goal"], "met" if x["met"] else "missed", fmt(v, 2),
                ": " + x["why"] if x["why"] else ""))
        L.append("")
        L.append("## What was measured, and the model")
        L.append("")
        L.append(MODEL_TEXT.format(
            power=", ".join("%s MHz %s mW" % (int(k) // 1000, fmt(v / 1000.0, 1))
                            for k, v in g["model"]["power_uw"].items()),
            static=", ".join("%s MHz %s mW" % (int(k) // 1000,
                                               fmt(v / 1000.0, 1))
                             for k, v in g["model"]["static_uw"].items()),
            leak=round(100 * g["model"]["leak"]),
            slack=round(100 * g["model"]["slack"]),
            cap=g["model"]["dynamic_power_coefficient"],
            work_us=b["work_us"], tap=b["tap"], frame=b["frame"],
            idle=b["idle"]))
        L.append("")
        L.append("Governor callbacks counted on idle, all runs together: " +
                 "; ".join("%s: %s" % (gov, ", ".join(
                     "%s %d" % kv for kv in sorted(
                         g["stats"][gov].get("idle_wakeup_functions", {}).items()))
                     or "none") for gov in order))
        L.append("")
    if res.get("rtapp"):
        L.append("## rt-app workloads")
        L.append("")
        L.append("From the rtapp part (initramfs/bench/20-rtapp.sh): Debian's "
                 "rt-app plays its examples and a utilization ramp under each "
                 "governor; medians over the runs.  The emulated CPU runs "
                 "rt-app's calibrated loops at one speed, so the model "
                 "stretches each busy second by fmax / f of the speed the "
                 "schedule gave it: *energy* (mJ a run) is the work at the "
                 "recorded speeds with dynamic and static power, plus the "
                 "static power held above the minimum while the policy "
                 "idled (*held*, ms); a loop is *late* when its stretched run "
                 "outlasts its slack (to its timer's deadline as rt-app "
                 "measured it, else the loop's own waits), *worst slack* the "
                 "least slack left (negative: late by that much); "
                 "*to max*: from the workload's start to the top speed.")
        L.append("")
        for w in sorted(res["rtapp"]):
            rows = res["rtapp"][w]
            L.append("### %s" % w)
            L.append("")
            L.append("| governor | energy mJ | held ms | late loops (of those "
                     "that ran) | worst slack ms | to max ms |")
            L.append("|---|---|---|---|---|---|")
            order = [x for x in GOVS if x in rows] + \
                sorted(x for x in rows if x not in GOVS)
            for gv in order:
                r = rows[gv]
                L.append("| %s | %s | %s | %s (of %s) | %s | %s |" % (
                    gv, fmt(r["energy_mj"]), fmt(r["held_ms"], 0),
                    fmt(r["late"], 0), fmt(r["loops"], 0),
                    fmt(r["worst_slack_ms"], 2),
                    fmt(r["to_max_ms"]) + (" (%d never)" % r["to_max_never"]
                                           if r["to_max_never"] else "")))
            L.append("")
    if res.get("hookcost"):
        L.append("## Idle notifier hook cost")
        L.append("")
        L.append("From the hookcost part (initramfs/bench/50-hookcost.sh); "
                 "values over its rounds.")
        L.append("")
        L.append("| metric | listeners | unit | n | median | p95 | spread | "
                 "ratio to 0 listeners |")
        L.append("|---|---|---|---|---|---|---|---|")
        for r in res["hookcost"]:
            L.append("| %s | %s%s | %s | %d | %s | %s | %s | %s |" % (
                r["metric"], r["gov"] or r["listeners"],
                " added" if r["added"] else "",
                r["unit"], r["n"], fmt(r["median"], 2), fmt(r["p95"], 2),
                fmt(r["spread"], 2),
                fmt(r["ratio_to_0"], 3) if r["ratio_to_0"] is not None else "–"))
        L.append("")
    if res.get("ledrate"):
        L.append("## LED register writes")
        L.append("")
        L.append("From the ledrate part (initramfs/bench/60-ledrate.sh): "
                 "the idle notifier's LED calls against what stock 6.1's "
                 "arch_cpu_idle_enter/exit() would have made over the same "
                 "seconds (2 per hardware idle entry), all CPUs; cpuidle "
                 "driver: %s (CPU PM notifiers only run under one)."
                 % res["ledrate"][0]["cpuidle_driver"])
        L.append("")
        L.append("| phase | seconds | notifier writes/s | stock 6.1 writes/s "
                 "| notifier / stock |")
        L.append("|---|---|---|---|---|")
        for r in res["ledrate"]:
            L.append("| %s | %s | %s | %s | %s |" % (
                r["phase"], r["seconds"], fmt(r["notifier_per_s"]),
                fmt(r["stock_per_s"]),
                fmt(r["ratio"], 3) if r["ratio"] is not None else "–"))
        L.append("")
    if res.get("plots"):
        L.append("## Plots")
        L.append("")
        L.append(" ".join("[%s](%s)" % (p, p) for p in res["plots"]))
        L.append("")
    with open(path, "w") as f:
        f.write("\n".join(L))


MODEL_TEXT = """\
- Workloads (`wl`, initramfs/src/wl.c): **tap** `{tap}`: 1.5 s idle, then \
300 ms spinning on one CPU, 10 times, the CPU rotating; **frame** `{frame}`: \
60 Hz for 5 s, each frame {work_us} us of spinning (a fixed time, so the \
load the governors see does not depend on the host's speed); **idle** \
`{idle}`: 1 s lead-in, then 10 s asleep between the markers.
- **frame_scaled** is frame with `wl frame -s`: each frame spins until its \
{work_us} us at the top speed are done at the speed its CPU runs at \
(scaling_cur_freq), so in the guest too a frame takes 5× longer at 200 MHz \
and the governors see the load their speed causes (closed loop).  In \
*frame* the guest's frames are {work_us} us at every speed (open loop, the \
issue's model): a governor that measures load at the current speed sees \
30 % and may stay low while the modelled frames overrun.
- Speeds come from `power:cpu_frequency` (the speed has landed) and \
`clk:clk_set_rate` of the CPU clock (the driver asked for it: "requested").
- QEMU runs the guest at the same speed at every frequency, so the work is \
modelled: a burst is 300 ms × max of cycles, a frame {work_us} us × max, \
started when the workload woke for it (`sched:sched_wakeup`: its CPU is \
loaded from there, and a governor that reacts at once may change the speed \
before the workload writes its start marker; the marker when it did not \
sleep).  While the guest was busy the \
modelled CPU runs at the recorded speed; once the guest's own busy stretch \
ended the modelled CPU is still busy, so it keeps the speed the stretch \
ended with.  *work done* is when the cycles are done; a frame is missed when \
its work is not done by the next frame's start (frames are modelled \
independently, no queueing).  The governors saw the guest's load, not the \
modelled one (open loop): at a low speed the real CPU would be busier and \
a governor would raise it sooner.
- Energy: the kernel's energy model of the DT (dynamic-power-coefficient \
C = {cap}, OPP voltages): P = C·V²·f, {power}; plus a stated static \
(leakage) power per CPU from the OPP's voltage: {leak} % of the top OPP's \
dynamic power at its voltage, times (V/Vtop)³ (`--leak`): {static}.  \
*energy* = ∫(dynamic + static) dt over the modelled execution of the \
workload's work only.  *held*: how long every CPU of the policy was idle \
(`power:cpu_idle`) while the speed was above the minimum: the speed a \
governor holds after the work; *energy + held* adds what that costs, the \
static power of the policy's CPUs at the held speed's voltage over what \
they leak at the minimum's (other tasks and idle at the minimum count \
nothing, alike for every governor).
- *oracle*: a clairvoyant schedule, from the workload's definition and the \
OPPs: each burst and frame runs at the one OPP, or the two adjacent OPPs \
shared, that finish its work {slack} % later than the top speed would \
(`--slack`) at the least energy, and the CPU drops to the minimum the \
moment the work is done (nothing held).
- Idle wakeups: governor callbacks that ran between idle_start and idle_end \
(any CPU) and could have woken the CPU: `timer_expire_entry` of \
interactive_slack_timer; \
`sched_kthread_work_execute_start` of interactive_up_work (SCHED_FIFO thread) \
and sugov_work (schedutil's thread); `workqueue_execute_start` of \
interactive_down_work and dbs_work_handler (ondemand, conservative).  Each \
counts as one wakeup.  The irq_work that ondemand, conservative and \
schedutil queue from the scheduler's update hook has no tracepoint; each \
queues one of the work items above, so it is counted through them.  interactive_timer, the interactive governor's \
deferrable sampling timer, cannot wake a CPU: it runs in an interrupt that \
woke the CPU for something else.  Its runs are the *idle deferred runs*."""


# ------------------------------------------------------------------ plots

def plots(g, recs, out):
    """gnuplot: tap-GOV.png (speed around each burst of the first run),
    frame-GOV.png and frame_scaled-GOV.png (the first second of the first
    run)."""
    if not shutil.which("gnuplot"):
        return [], ["gnuplot not installed (Debian: gnuplot-nox): no plots"]
    d = os.path.join(out, "plot")
    os.makedirs(d, exist_ok=True)
    made, problems = [], []
    board = g["board"]
    ymax = board["max_khz"] / 1000 * 1.1
    cells = [r for r in recs if r.get("kind") == "cell"]
    for c in cells:
        if c["rep"] != 0 or c["workload"] not in ("tap", "frame",
                                                  "frame_scaled"):
            continue
        gov, wl = c["gov"], c["workload"]
        mk = "frame" if wl.startswith("frame") else wl
        speed = Speed(c["f0"], [(t, k) for t, k in c["freq"]])
        dat = os.path.join(d, "%s-%s.dat" % (wl, gov))
        starts = [m for m in c["marks"] if m[1] == mk + "_start"]
        ends = {m[3]: m[0] for m in c["marks"] if m[1] == mk + "_end"}
        with open(dat, "w") as f:
            if wl == "tap":
                # One block per burst, time from its start.
                for m in starts:
                    s = m[0]
                    a, b = s - 0.1, min(s + 0.7, c["t1"] or s + 0.7)
                    pts = [a] + speed.changes(a, b) + [b]
                    f.write("# burst %d cpu %d\n" % (m[3], m[2]))
                    for t in pts:
                        f.write("%.3f %.0f\n" % ((t - s) * 1000,
                                                 speed.at(t) / 1000))
                    f.write("\n\n")
                xr = "[-100:700]"
                xl = "ms from the start of the burst (a line per burst, run 1)"
                burst_ms = int(re.search(r"burst_ms=(\d+)", c["wl"]).group(1))
                busy = "set object 1 rect from 0,0 to %d,%f fc rgb '#dddddd' " \
                       "fs solid behind" % (burst_ms, ymax)
                plot = "plot for [i=0:%d] '%s' index i using 1:2 with steps " \
                       "lc rgb '#1f77b4' notitle" % (len(starts) - 1, dat)
            else:
                s0 = starts[0][0] if starts else c["t0"]
                a, b = s0, min(s0 + 1.0, c["t1"] or s0 + 1.0)
                pts = [a] + speed.changes(a, b) + [b]
                for t in pts:
                    f.write("%.3f %.0f\n" % ((t - s0) * 1000, speed.at(t) / 1000))
                f.write("\n\n")
                for m in starts:
                    e = ends.get(m[3])
                    if e is None or m[0] > b:
                        continue
                    f.write("%.3f %.0f %.3f %.0f\n" % (
                        ((m[0] + e) / 2 - s0) * 1000, ymax * 0.03,
                        (e - m[0]) / 2 * 1000, ymax * 0.03))
                xr = "[0:1000]"
                xl = "ms from the first frame (bars: frame work in the guest, run 1)"
                busy = ""
                plot = ("plot '%s' index 0 using 1:2 with steps lc rgb '#1f77b4' "
                        "title 'speed', '%s' index 1 using 1:2:3:4 with "
                        "boxxyerrorbars fs solid lc rgb '#ff7f0e' title 'frame'"
                        % (dat, dat))
        png = "%s-%s.png" % (wl, gov)
        script = "\n".join([
            "set terminal pngcairo size 900,360" if gp_has_cairo()
            else "set terminal png size 900,360",
            "set termoption noenhanced",
            "set output '%s'" % os.path.join(out, png),
            "set title '%s: %s'" % (wl, gov),
            "set xrange %s" % xr, "set yrange [0:%f]" % ymax,
            "set xlabel '%s'" % xl, "set ylabel 'MHz'", "set grid",
            "set ytics (%s)" % ", ".join(str(k // 1000)
                                         for k in board["freqs_khz"]),
            busy, plot, ""])
        gp = os.path.join(d, "%s-%s.gp" % (wl, gov))
        with open(gp, "w") as f:
            f.write(script)
        r = subprocess.run(["gnuplot", gp], capture_output=True, text=True)
        if r.returncode:
            problems.append("gnuplot %s: %s" % (gp, r.stderr.strip()[:200]))
        else:
            made.append(png)
    return sorted(made), problems


_CAIRO = None


def gp_has_cairo():
    global _CAIRO
    if _CAIRO is None:
        r = subprocess.run(["gnuplot", "-e", "set terminal"],
                           capture_output=True, text=True)
        _CAIRO = "pngcairo" in (r.stdout + r.stderr)
    return _CAIRO


# ------------------------------------------------------------------- boot

def boot(a, out, mode):
    data = os.path.join(out, "records.txt")
    log = os.path.join(out, "console.log")
    # Nothing of an earlier run may pass for this one's.
    for f in os.listdir(out):
        if f in ("records.txt", "console.log", "boot.json", "results.json",
                 "results.md") or f.endswith(".png"):
            os.unlink(os.path.join(out, f))
    shutil.rmtree(os.path.join(out, "plot"), ignore_errors=True)
    zimage = os.path.join(a.build, "obj-%s" % a.variant, "arch/arm/boot/zImage")
    initrd = os.path.join(a.build, "initramfs-%s.cpio.gz" % a.variant)
    append = "console=ttyAMA0 mode=bench bench_port=ttyAMA1 bench_reps=%d" \
        % a.reps
    if a.govs:
        append += " bench_govs=" + a.govs
    if a.workloads:
        append += " bench_workloads=" + a.workloads
    if a.parts:
        append += " bench_parts=" + a.parts
    if mode["append"]:
        append += " " + mode["append"]
    # A priority above the host's other work (--nice -10, as root) keeps
    # the vCPU threads from waiting for the host's CPUs, the main noise of
    # multi-threaded TCG.
    cmd = ["nice", "-n", str(a.nice)] if a.nice else []
    cmd += [sys.executable, os.path.join(TOP, "boot/qemu.py"),
           "--kernel", zimage, "--dtb", a.dtb, "--initrd", initrd,
           "--smp", str(a.smp), "--mem", str(a.mem), "--log", log,
           "--timeout", str(a.timeout), "--append", append,
           "--qemu-arg=-serial", "--qemu-arg=file:%s" % data]
    cmd += ["--qemu-arg=%s" % x for x in mode["qemu"]]
    print("bench.py: booting (%s): %s" % (mode["name"], append), flush=True)
    t = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, errors="replace")
    for line in p.stdout:
        # Progress only: the parts' lines and the launcher's verdict.
        if line.startswith(("bench:", "qemu.py:", "init:")) or \
                "Kernel panic" in line:
            print(line.rstrip(), flush=True)
    rc = p.wait()
    return rc, time.monotonic() - t, append


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
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(jsonable(res), f, indent=1)
    write_md(os.path.join(a.out, "results.md"), res)
    for pr in problems:
        print("bench.py: " + pr, file=sys.stderr)
    print("bench.py: wrote %s" % os.path.join(a.out, "results.md"))
    if not recs:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
