"""The benchmark's model (make bench, ci/bench.py): what each governor's
recorded run cost and how fast it answered.

The board's energy model from its DTS (the kernel's formula, plus a
stated static power per OPP), the oracle (the least energy that finishes
each burst and frame in time), and the analysis of the guest's records
of each part: the governors' cells (tap, frames, idle), rt-app, the idle
hook's cost, the LED rate.
"""

import math
import re
import sys

from bench_stats import fmt, median, percentile, ratio, summarise


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


WORKERS = {"interactive_up_work", "interactive_down_work", "interactive_hint_work"}


CHANGES = {"raise", "hint", "lower"}


def decided_here(evals, wakeup):
    """True when WAKEUP, a run of the governor's worker, carries out a
    decision made on the CPU it runs on: that CPU was awake deciding, and a
    CPU with a runnable worker does not idle, so the run woke no CPU."""
    if wakeup[2] not in WORKERS:
        return False
    prior = [e for e in evals if e[0] <= wakeup[0] and e[4] in CHANGES]
    return bool(prior) and max(prior)[1] == wakeup[1]


def decided_before(evals, wakeup, start):
    """True when WAKEUP, a run of the governor's worker, carries out the
    last speed change decided before it, and that decision came before
    START."""
    if wakeup[2] not in WORKERS:
        return False
    prior = [e for e in evals if e[0] <= wakeup[0] and e[4] in CHANGES]
    return bool(prior) and max(e[0] for e in prior) < start


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
            # A worker run that carries out a speed change the governor
            # decided before the window (for wl's wakeup that opened it)
            # is the workload's, not the idle board's; one on the CPU
            # that decided it woke nothing.
            fmin = board["min_khz"]
            m = [x for x in w if x not in d and speed.at(x[0]) <= fmin
                 and not decided_before(c["eval"], x, a)
                 and not decided_here(c["eval"], x)]
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
