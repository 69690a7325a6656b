#!/usr/bin/env python3
"""What `make run` showed, as a picture and as checks.

Reads the demo's console log (the guest's timeline of speed changes and
bursts, from ftrace) and the host's LED samples of each phase (boot/qemu.py
--led-report), puts both on the guest's time axis (each phase starts when
`burn -P` prints its marker, next to the burst's start in the trace), and

- writes OUT.png with gnuplot: a strip per CPU (its LED as the host read
  it, its burst as a bar) and the policy's speed below;
- prints a text rendering of the same for a terminal;
- with --check, prints one line per check and "N passed, N failed", and
  exits 1 on a failure: each busy phase lit its CPU's LED in >= 90 % of
  the samples and kept the others dark, each idle phase had every LED dark
  at its end and reached the minimum speed, and the PNG is a PNG of the
  size asked for.
"""

import argparse
import json
import re
import struct
import subprocess
import sys

BURST = re.compile(r"^\s*([0-9.]+) s  cpu(\d+) burst (begins|ends) \((\d+) MHz\)")
SPEED = re.compile(r"^\s*([0-9.]+) s  speed (\d+) -> (\d+) MHz")
IDLE_END = re.compile(r"^\s*([0-9.]+) s  idle phase after the cpu(\d+) burst ends")
WIDTH, HEIGHT = 1000, 600


def read_timeline(lines):
    """The guest's timeline: bursts {cpu: [begin, end]}, idle ends {cpu: t},
    speed steps [(t, MHz)] (the first at 0 with the speed then)."""
    bursts, idle_end, speed = {}, {}, []
    on = False
    for line in lines:
        if line.startswith("=== timeline"):
            on = True
            continue
        if on and line.startswith("=== "):
            break
        if not on:
            continue
        m = BURST.match(line)
        if m:
            t, cpu, what, mhz = float(m.group(1)), int(m.group(2)), m.group(3), int(m.group(4))
            bursts.setdefault(cpu, [None, None])[0 if what == "begins" else 1] = t
            if not speed:
                speed.append((0.0, mhz))
            continue
        m = SPEED.match(line)
        if m:
            speed.append((float(m.group(1)), int(m.group(3))))
            continue
        m = IDLE_END.match(line)
        if m:
            idle_end[int(m.group(2))] = float(m.group(1))
    return bursts, idle_end, speed


def led_series(phases, bursts, ncpus):
    """Per CPU, [(guest time, lit)] from the host's samples: a busy phase
    starts at its burst's begin, an idle phase at its end."""
    out = {c: [] for c in range(ncpus)}
    for ph in phases:
        cpu = ph.get("cpu")
        if cpu is None or cpu not in bursts or ph["phase"] not in ("busy", "idle"):
            continue
        t0 = bursts[cpu][0 if ph["phase"] == "busy" else 1]
        if t0 is None:
            continue
        for t, v in ph["samples"]:
            for c in range(ncpus):
                out[c].append((t0 + t, 1 if v & (1 << (2 + c)) else 0))
    for c in out:
        out[c].sort()
    return out


def plot(path, bursts, leds, speed, ncpus, end):
    gp = ["set terminal pngcairo size %d,%d" % (WIDTH, HEIGHT)
          if has_cairo() else "set terminal png size %d,%d" % (WIDTH, HEIGHT),
          "set output '%s'" % path,
          "set multiplot layout 2,1 title 'make run: LEDs (host samples), bursts and speed (guest ftrace)'",
          "set xrange [0:%g]" % end, "set xlabel 'guest time (s)'",
          "set ytics (%s)" % ", ".join("'cpu%d' %d" % (c, 2 * c) for c in range(ncpus)),
          "set yrange [-0.5:%g]" % (2 * ncpus), "set key off", "set grid x"]
    data = []
    for c in range(ncpus):
        b = bursts.get(c)
        if b and b[0] is not None and b[1] is not None:
            gp.append("set object rect from %g,%g to %g,%g fc rgb '#d0d0d0' fs solid 0.6 noborder"
                      % (b[0], 2 * c - 0.3, b[1], 2 * c + 1.3))
    plots = []
    for c in range(ncpus):
        data.append("\n".join("%g %g" % (t, 2 * c + v) for t, v in leds[c]) or "0 %d" % (2 * c))
        plots.append("'-' using 1:2 with steps lw 2 lc rgb '#2a9d2a'")
    gp.append("plot " + ", ".join(plots))
    for d in data:
        gp.append(d)
        gp.append("e")
    gp += ["unset object", "set ylabel 'MHz'", "set ytics auto",
           "set yrange [0:1100]",
           "plot '-' using 1:2 with steps lw 2 lc rgb '#1f5fbf'"]
    pts = speed + [(end, speed[-1][1])] if speed else [(0, 0)]
    gp.append("\n".join("%g %g" % p for p in pts))
    gp += ["e", "unset multiplot"]
    r = subprocess.run(["gnuplot"], input="\n".join(gp) + "\n", text=True,
                       capture_output=True)
    if r.returncode:
        sys.exit("demo.py: gnuplot failed: %s" % r.stderr.strip())


def has_cairo():
    r = subprocess.run(["gnuplot", "-e", "set terminal"], capture_output=True,
                       text=True)
    return "pngcairo" in r.stdout + r.stderr


def text_view(bursts, leds, speed, ncpus, end, cols=72):
    """A strip per CPU: '#' LED lit, '.' dark, '=' under a burst; the speed
    as a digit per column (MHz / 100, '*' for 1000)."""
    step = end / cols
    rows = []
    for c in range(ncpus):
        led, bar = [], []
        for i in range(cols):
            a, z = i * step, (i + 1) * step
            s = [v for t, v in leds[c] if a <= t < z]
            led.append("#" if s and sum(s) * 2 >= len(s) else ("." if s else " "))
            b = bursts.get(c, [None, None])
            bar.append("=" if b[0] is not None and b[1] is not None and
                       b[0] < z and b[1] > a else " ")
        rows.append("  cpu%d LED   %s" % (c, "".join(led)))
        rows.append("       burst %s" % "".join(bar))
    sp = []
    for i in range(cols):
        t = (i + 0.5) * step
        mhz = [m for u, m in speed if u <= t]
        v = mhz[-1] if mhz else (speed[0][1] if speed else 0)
        sp.append("*" if v >= 1000 else str(v // 100))
    rows.append("  speed/100  %s" % "".join(sp))
    rows.append("  0 s%s%.1f s" % (" " * (cols + 4), end))
    return "\n".join(rows)


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def checks(rep, bursts, idle_end, speed, leds, ncpus, png):
    rows = []
    fmin = min(m for _, m in speed) if speed else 0
    by = {(p.get("cpu"), p["phase"]): p for p in rep.get("phases", [])}
    for c in range(ncpus):
        busy = by.get((c, "busy"))
        s = busy["samples"] if busy else []
        lit = sum(1 for _, v in s if v & (1 << (2 + c)))
        others = sum(1 for _, v in s if not v & sum(1 << (2 + o) for o in range(ncpus) if o != c))
        rows.append(("cpu%d busy: its LED lit in >= 90%% of the samples" % c,
                     len(s) >= 10 and lit * 10 >= len(s) * 9,
                     "%d of %d" % (lit, len(s))))
        rows.append(("cpu%d busy: the other LEDs dark in >= 90%% of the samples" % c,
                     len(s) >= 10 and others * 10 >= len(s) * 9,
                     "%d of %d" % (others, len(s))))
        idle = by.get((c, "idle"))
        s = idle["samples"] if idle else []
        tail = [v for t, v in s if t >= (s[-1][0] - 0.3 if s else 0)]
        dark = sum(1 for v in tail if not v & (((1 << ncpus) - 1) << 2))
        rows.append(("after cpu%d: every LED dark at the end of the idle phase "
                     "(>= 90%% of the samples of its last 0.3 s)" % c,
                     len(tail) >= 5 and dark * 10 >= len(tail) * 9,
                     "%d of %d" % (dark, len(tail))))
        b, e = bursts.get(c, [None, None]), idle_end.get(c)
        back = None
        if b[1] is not None and e is not None:
            # The speed at the burst's end, then each change until the
            # idle phase ends: the first time it is the minimum.
            steps = [(b[1], ([m for t, m in speed if t <= b[1]] or [0])[-1])]
            steps += [(t, m) for t, m in speed if b[1] < t <= e]
            back = next((t for t, m in steps if m == fmin), None)
        rows.append(("after cpu%d: the speed reached the minimum in the idle phase" % c,
                     back is not None,
                     "%.0f ms after the burst" % ((back - b[1]) * 1000)
                     if back is not None else "never"))
    size = png_size(png) if png else None
    rows.append(("the picture is a %dx%d PNG" % (WIDTH, HEIGHT),
                 size == (WIDTH, HEIGHT), "%s" % (size,)))
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--console", required=True)
    p.add_argument("--leds", required=True)
    p.add_argument("--out", required=True, help="the PNG to write")
    p.add_argument("--smp", type=int, default=4)
    p.add_argument("--check", action="store_true")
    a = p.parse_args()
    with open(a.console, errors="replace") as f:
        lines = f.read().splitlines()
    try:
        with open(a.leds) as f:
            rep = json.load(f)
    except (OSError, ValueError):
        rep = {"phases": []}
    bursts, idle_end, speed = read_timeline(lines)
    if not bursts:
        sys.exit("demo.py: no timeline in %s" % a.console)
    leds = led_series(rep.get("phases", []), bursts, a.smp)
    end = max([t for t in idle_end.values()] + [b[1] or 0 for b in bursts.values()]) + 0.1
    plot(a.out, bursts, leds, speed, a.smp, end)
    print("=== the demo as a picture: %s" % a.out)
    print(text_view(bursts, leds, speed, a.smp, end))
    if not a.check:
        return 0
    rows = checks(rep, bursts, idle_end, speed, leds, a.smp, a.out)
    for name, ok, note in rows:
        print("%-4s  %s  (%s)" % ("PASS" if ok else "FAIL", name, note))
    failed = sum(1 for _, ok, _ in rows if not ok)
    print("%d passed, %d failed" % (len(rows) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
