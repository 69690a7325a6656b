"""The benchmark's statistics (ci/bench.py): medians and nearest-rank
percentiles where None is 'never', each cell's runs, the ratios between
governors and against the oracle, and the goals (met or not, with the
numbers); the governors and columns of the table.
"""

import math


# "interactive-2012" is interactive with sched_hint 0: the 2012 rule.
GOVS = ["interactive", "interactive-2012", "ondemand", "schedutil",
        "conservative", "performance", "powersave"]


RATIOS = [("interactive", "ondemand"), ("interactive", "schedutil")]


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


# ------------------------------------------------------------------ output

def fmt(v, digits=1):
    if v is None:
        return "never"
    if v == math.inf:
        return "∞"
    if isinstance(v, int) or float(v).is_integer() and abs(v) >= 100:
        return "%d" % v
    return "%.*f" % (digits, v)


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
                    "why": "counted: a governor callback while the policy "
                    "was at its minimum that may have woken a CPU (not the "
                    "deferrable timer, not a worker on the CPU whose "
                    "decision queued it, not one carrying out a decision "
                    "made before the window); all callbacks during idle, at "
                    "any speed (worst run %s/s): %s" % (fmt(every, 2), ", ".join(
                        "%s %d" % kv for kv in sorted(fns.items())) or
                        "none")})
    return out
