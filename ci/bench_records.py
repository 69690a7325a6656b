"""The benchmark's boot and records (ci/bench.py): boot the board in
mode=bench (boot/board.py) with a second serial port to a file, and read
the BENCHREC records the guest's parts sent there.
"""

import json
import os
import re
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(TOP, "boot"))
from board import Board  # noqa: E402  (boot/board.py: the board's boots)


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
    append = "mode=bench bench_port=ttyAMA1 bench_reps=%d" % a.reps
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
    b = Board(a.build, a.variant, a.dtb, log, a.timeout, append=append,
              smp=a.smp, mem=a.mem, nice=a.nice,
              qemu_args=["-serial", "file:%s" % data] + list(mode["qemu"]))
    print("bench.py: booting (%s): %s" % (mode["name"], b.append), flush=True)
    t = time.monotonic()
    for line in b.lines():
        # Progress only: the parts' lines and the launcher's verdict.
        if line.startswith(("bench:", "qemu.py:", "init:")) or \
                "Kernel panic" in line:
            print(line, flush=True)
    return b.status, time.monotonic() - t, b.append
