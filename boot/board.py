"""The emulated board, for the host scripts (ci/check.py, soak.py, bench.py).

One place knows a kernel variant's files, the launcher's command line
(boot/qemu.py: QEMU with panic and hang detection and the LED sampler),
what its exit statuses mean, and how to read the guest's console as it
arrives, so that a long boot can show its progress.

    b = Board(build, "builtin", dtb, log="build/x.log", timeout=600,
              append="mode=check")
    for line in b.lines():      # the console, line by line, live
        ...
    b.status, b.why()           # 0 and "" when the guest powered off
"""

import hashlib
import os
import signal
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LAUNCHER = os.path.join(HERE, "qemu.py")

# boot/qemu.py's exit statuses; any other is QEMU's own (it did not start).
EXIT = {
    0: "",
    3: "the guest panicked",
    124: "the guest hung: killed by the time-out",
    130: "interrupted",
}


def why(status):
    """What a launcher exit status means, "" for a clean power-off."""
    return EXIT.get(status, "qemu exit status %d" % status)


def kernel_of(build, variant):
    return os.path.join(build, "obj-%s" % variant, "arch/arm/boot/zImage")


def initrd_of(build, variant):
    return os.path.join(build, "initramfs-%s.cpio.gz" % variant)


def sha256_of(path):
    """The sha256 of a file (hex), None if there is none."""
    if not os.path.isfile(path):
        return None
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def images(build, variant, dtb, args):
    """What a test boot's results are of: its kernel, DTB and initramfs
    (sha256) and the kernel arguments the test run adds (tests=...).
    ci/check.py writes it next to its results (VARIANT.images.json), and
    ci/lava.py compares a LAVA run's with make check's through it."""
    return {"kernel": sha256_of(kernel_of(build, variant)),
            "dtb": sha256_of(dtb),
            "initrd": sha256_of(initrd_of(build, variant)),
            "args": " ".join(args.split())}


class Board:
    """One boot of a kernel variant: its command line, then its lines."""

    def __init__(self, build, variant, dtb, log, timeout, append="",
                 smp=4, mem=512, leds=None, qemu_args=(), nice=0):
        self.variant = variant
        self.kernel = kernel_of(build, variant)
        self.initrd = initrd_of(build, variant)
        self.dtb = dtb
        self.log = log
        self.append = " ".join(("console=ttyAMA0 " + append).split())
        self.status = None
        cmd = ["nice", "-n", str(nice)] if nice else []
        cmd += [sys.executable, LAUNCHER,
                "--kernel", self.kernel, "--dtb", dtb, "--initrd", self.initrd,
                "--smp", str(smp), "--mem", str(mem),
                "--timeout", str(timeout), "--log", log,
                "--append", self.append]
        if leds:
            cmd += ["--led-report", leds]
        cmd += ["--qemu-arg=%s" % x for x in qemu_args]
        self.cmd = cmd

    def missing(self):
        """The files the boot needs that are not there."""
        return [f for f in (self.kernel, self.initrd, self.dtb)
                if not os.path.exists(f)]

    def lines(self):
        """Boot, and yield each console line (and the launcher's own
        "qemu.py: ..." lines) as it arrives; self.status is the launcher's
        exit status once the generator is exhausted.  The whole console is
        also in self.log."""
        if os.path.exists(self.log):
            os.remove(self.log)
        os.makedirs(os.path.dirname(os.path.abspath(self.log)), exist_ok=True)
        p = subprocess.Popen(self.cmd, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True,
                             errors="replace")
        eof = False
        try:
            for line in p.stdout:
                yield line.rstrip("\r\n")
            eof = True
        finally:
            if not eof and p.poll() is None:
                # The caller stopped reading: stop the boot too (SIGINT:
                # the launcher kills QEMU and exits 130).
                p.send_signal(signal.SIGINT)
            self.status = p.wait()

    def run(self, show=None):
        """Boot to the end; show(line) for each line (None: quiet).
        Returns the exit status."""
        for line in self.lines():
            if show:
                show(line)
        return self.status

    def why(self):
        return why(self.status)

    def read_log(self):
        with open(self.log, errors="replace") as f:
            return f.read().splitlines()
