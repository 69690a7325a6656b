"""The clusters part of the benchmark (initramfs/bench/30-clusters.sh, make
bench BOARD=2cluster): the governors on every policy of a two-cluster
board, with workloads the scheduler places (energy-aware scheduling under
schedutil), each cluster's energy model applied to the time each CPU was
busy at its policy's speed.

The workloads do their work in the guest at the rate of the CPU they run
on (wl -s: cur/max * cpu_capacity/1024 of the biggest CPU's top speed), so
the times here are guest times of a closed loop: a burst placed on the
little cluster, or left at a low speed, takes longer, as on hardware.
"""

from bench_stats import fmt, median, percentile, ratio

PART = "clusters"

# (key, title, unit): the table's columns, in order.
COLUMNS = [
    ("tap_ms", "tap burst", "ms"),
    ("tap_big", "tap on big", "% of bursts"),
    ("tap_mj", "tap energy", "mJ per run"),
    ("frame_ms", "frame", "ms"),
    ("frame_over", "frames over 16.7 ms", "per run"),
    ("frame_mj", "frame energy", "mJ per run"),
    ("idle_mj", "idle energy", "mJ per run"),
    ("idle_wakeups", "idle wakeups", "per s"),
]

RATIOS = [("interactive", "schedutil"), ("interactive-hsmax", "schedutil"),
          ("interactive", "ondemand")]


def cluster_power(board):
    """{cpu: ({kHz: uW}, capacity, policy name)} from the board record."""
    out = {}
    for p in board["policies"]:
        em = {e["khz"]: e["power_uw"] for e in p["em"]}
        for c in p["cpus"]:
            out[str(c)] = (em, p["capacity"].get(str(c), 1024), p["policy"])
    return out


def power_at(em, khz):
    """The energy model's power at khz (the nearest OPP above, else the
    highest: a speed between OPPs does not occur with cpufreq-dt)."""
    if not em:
        return 0
    if khz in em:
        return em[khz]
    above = [k for k in em if k >= khz]
    return em[min(above)] if above else em[max(em)]


def cell_energy_mj(cell, cpus):
    """Every CPU's busy seconds at each speed times its cluster's power."""
    uj = 0.0
    for c, per in cell["busy"].items():
        em = cpus.get(c, ({}, 1024, "?"))[0]
        for khz, s in per.items():
            uj += power_at(em, int(khz)) * s
    return uj / 1000.0


def intervals(marks, start, end):
    """[(t0, t1, cpu_at_end)] of each start..end pair of markers by seq."""
    open_ = {}
    out = []
    for t, name, cpu, seq in marks:
        if name == start:
            open_[seq] = t
        elif name == end and seq in open_:
            out.append((open_.pop(seq), t, cpu))
    return out


def analyse_clusters(recs):
    """Returns the part's results, or None when it ran no cell (one
    policy: the skip record says why)."""
    board = next((r for r in recs if r.get("kind") == "board"), None)
    cells = [r for r in recs if r.get("kind") == "cell"]
    skip = next((r for r in recs if r.get("kind") == "skip"), None)
    if skip or not board or not cells:
        return {"skipped": skip["why"] if skip else "no records"}
    cpus = cluster_power(board)
    big = {c for c, (_, cap, _) in cpus.items() if cap >= 1024}
    govs = []
    samples = {}
    for c in cells:
        g = c["gov"]
        if g not in govs:
            govs.append(g)
        s = samples.setdefault(g, {k: [] for k, _, _ in COLUMNS})
        s.setdefault("runs", {})
        mj = cell_energy_mj(c, cpus)
        w = c["workload"]
        if w == "tap":
            iv = intervals(c["marks"], "tap_start", "tap_end")
            s["tap_ms"] += [(b - a) * 1000 for a, b, _ in iv]
            if iv:
                s["tap_big"].append(100.0 * sum(
                    1 for _, _, cpu in iv if str(cpu) in big) / len(iv))
            s["tap_mj"].append(mj)
        elif w == "frame":
            iv = intervals(c["marks"], "frame_start", "frame_end")
            s["frame_ms"] += [(b - a) * 1000 for a, b, _ in iv]
            s["frame_over"].append(sum(1 for a, b, _ in iv
                                       if b - a > 0.016667))
            s["frame_mj"].append(mj)
        elif w == "idle":
            secs = 0
            iv = [m[0] for m in c["marks"] if m[1] in ("idle_start",
                                                       "idle_end")]
            if len(iv) == 2:
                secs = iv[1] - iv[0]
            s["idle_mj"].append(mj)
            if secs > 0:
                s["idle_wakeups"].append(c["wake"] / secs)
                s.setdefault("idle_deferred", []).append(
                    c.get("deferred", 0) / secs)
                fns = s.setdefault("idle_fns", {})
                for k, n in c.get("wake_fn", {}).items():
                    fns[k] = fns.get(k, 0) + n / secs
    stats = {}
    for g in govs:
        stats[g] = {}
        for k, _, _ in COLUMNS:
            v = samples[g][k]
            stats[g][k] = {"n": len(v), "median": median(v),
                           "p95": percentile(v, 95)}
        d = samples[g].get("idle_deferred", [])
        stats[g]["idle_deferred"] = median(d) if d else None
        # Per second, the mean over the runs, by callback@CPU.
        n = len(samples[g]["idle_wakeups"]) or 1
        stats[g]["idle_fns"] = {k: v / n for k, v in
                                samples[g].get("idle_fns", {}).items()}
    # EAS: a switch away from schedutil printed "Disabling EAS" (the
    # perf domains existed through the schedutil cell before it).
    away = [c for c in cells if c.get("prev") == "schedutil"
            and c["gov"] != "schedutil"]
    eas = {"switches_away": len(away),
           "disabled_msgs": sum(1 for c in away if c.get("eas_off")),
           "sched_energy_aware": board.get("sched_energy_aware"),
           "schedutil_cells": sum(1 for c in cells
                                  if c["gov"] == "schedutil")}
    rat = {}
    for a, b in RATIOS:
        if a in stats and b in stats:
            rat["%s/%s" % (a, b)] = {
                k: {"median": ratio(stats[a][k]["median"],
                                    stats[b][k]["median"]),
                    "p95": ratio(stats[a][k]["p95"], stats[b][k]["p95"])}
                for k, _, _ in COLUMNS}
    return {"board": board, "govs": govs, "stats": stats, "ratios": rat,
            "eas": eas, "cells": len(cells)}


def clusters_md(r):
    """The results.md section of the clusters part."""
    L = ["## Two clusters (the clusters part)", ""]
    if r.get("skipped"):
        L += ["Not run: %s." % r["skipped"], ""]
        return L
    b = r["board"]
    pol = "; ".join(
        "%s: CPUs %s, %s MHz, capacity %s, energy model %s" % (
            p["policy"], ",".join(str(c) for c in p["cpus"]),
            "/".join(str(k // 1000) for k in p["freqs_khz"]),
            "/".join(sorted(set(str(v) for v in p["capacity"].values()))),
            ", ".join("%d MHz %.1f mW" % (e["khz"] // 1000,
                                          e["power_uw"] / 1000.0)
                      for e in sorted(p["em"], key=lambda e: e["khz"])))
        for p in b["policies"])
    e = r["eas"]
    L.append("From initramfs/bench/30-clusters.sh (%d cells, %s runs of each, "
             "interleaved): %s.  Interactive's tunables are global: its "
             "default hispeed_freq is %s kHz (made by policy0, the little "
             "cluster's top); *interactive-hsmax* sets it to %s kHz, the "
             "big cluster's top." % (
                 r["cells"], b.get("reps"), pol, b.get("hispeed_default"),
                 b.get("hispeed_max")))
    L.append("")
    L.append("EAS: sched_energy_aware %s; %d of %d switches from a schedutil "
             "cell to another governor made the kernel say \"Disabling EAS, "
             "schedutil is mandatory\", printed only when the perf domains "
             "existed: energy-aware placement was on in the schedutil "
             "cells." % (e["sched_energy_aware"], e["disabled_msgs"],
                         e["switches_away"]))
    L.append("")
    L.append("Workloads, unpinned, their work done at the rate of the CPU "
             "they run on (`wl -s`: cur/max × cpu_capacity/1024 of the big "
             "cluster's top speed; times are guest times): **tap** `wl tap "
             "-f -s %s` (bursts of 100 ms of work at the top speed, the "
             "scheduler placing each); **frame** `wl frame -s %s` (60 Hz, 5 "
             "ms of work a frame); **idle** `wl idle %s`.  Energy: each CPU's "
             "busy time (`power:cpu_idle`) at its policy's speed "
             "(`power:cpu_frequency`) times its cluster's energy model, over "
             "the whole cell (idle CPUs count nothing, as in the model EAS "
             "uses).  Cells: median / p95 over every sample of every run; "
             "idle wakeups: governor callbacks that may wake a CPU "
             "(interactive's deferrable timer apart: *deferred*)." % (
                 b.get("tap"), b.get("frame"), b.get("idle")))
    L.append("")
    L.append("| governor | " + " | ".join("%s (%s)" % (t, u)
                                          for _, t, u in COLUMNS) + " |")
    L.append("|---|" + "---|" * len(COLUMNS))
    for g in r["govs"]:
        st = r["stats"][g]
        cells = []
        for k, _, _ in COLUMNS:
            x = st[k]
            if k in ("tap_mj", "frame_mj", "idle_mj", "frame_over",
                     "tap_big", "idle_wakeups"):
                cells.append(fmt(x["median"]))
            else:
                cells.append("%s / %s" % (fmt(x["median"]), fmt(x["p95"])))
        if st.get("idle_deferred"):
            cells[-1] += " (deferred %s)" % fmt(st["idle_deferred"])
        L.append("| %s | %s |" % (g, " | ".join(cells)))
    for name, row in r["ratios"].items():
        cells = []
        for k, _, _ in COLUMNS:
            x = row[k]
            if k in ("tap_mj", "frame_mj", "idle_mj", "frame_over",
                     "tap_big", "idle_wakeups"):
                cells.append(fmt(x["median"], 2))
            else:
                cells.append("%s / %s" % (fmt(x["median"], 2),
                                          fmt(x["p95"], 2)))
        L.append("| *%s* | %s |" % (name, " | ".join(cells)))
    L.append("")
    fns = ["%s: %s" % (g, ", ".join(
        "%s %s" % (k, fmt(v, 2)) for k, v in sorted(
            r["stats"][g]["idle_fns"].items(), key=lambda x: -x[1])))
        for g in r["govs"] if r["stats"][g].get("idle_fns")]
    if fns:
        L.append("Idle wakeups per second by callback@CPU (mean of the "
                 "runs): " + "; ".join(fns) + ".")
        L.append("")
    return L
