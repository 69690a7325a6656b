#!/usr/bin/env python3
"""Boot the Versatile Express V2P-CA9 board in QEMU and watch it.

Starts qemu-system-arm -M vexpress-a9 with the kernel, DTB and initramfs,
the console on a serial port, and a QEMU monitor on a unix socket.  The
whole console is saved to --log.  The launcher exits:

  0    QEMU exited by itself (the guest powered off)
  3    the guest panicked (killed after the panic message)
  124  the wall-clock --timeout expired (the guest hung; it is killed)
  other: QEMU's own exit status (it failed to start)

The host also reads the board's LEDs from outside the guest: while the
guest prints "#LED phase=NAME cpu=K" markers (see initramfs/lib/board.sh),
a thread samples the motherboard SYS_LED register (0x10000008 on
vexpress-a9; user LED n is bit n-1, the LED with trigger cpuK is user3+K)
with the monitor command "xp /1wx", and --led-report writes the samples
per phase as JSON.  With --led-show each phase's result is printed.

With --interactive the console stays on the terminal (QEMU's stdio, with
Ctrl-A X to quit) and the log is kept with the chardev's logfile.
"""

import argparse
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

SYS_LED = 0x10000008
LED_MARK = re.compile(r"#LED phase=(\S+)(?: cpu=(\d+))?")
PANIC = re.compile(r"Kernel panic - not syncing|---\[ end Kernel panic")


class Monitor:
    """A human monitor on a unix socket, one command at a time."""

    def __init__(self, path, deadline=10.0):
        end = time.monotonic() + deadline
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > end:
                    raise
                time.sleep(0.05)
        self.buf = b""
        self._until_prompt()

    def _until_prompt(self):
        while b"(qemu) " not in self.buf:
            data = self.sock.recv(4096)
            if not data:
                raise EOFError("monitor closed")
            self.buf += data
        out, self.buf = self.buf.split(b"(qemu) ", 1)
        return out.decode(errors="replace")

    def cmd(self, line):
        self.sock.sendall(line.encode() + b"\n")
        return self._until_prompt()

    def read_word(self, addr):
        out = self.cmd("xp /1wx 0x%x" % addr)
        m = re.search(r"%x:\s+0x([0-9a-fA-F]+)" % addr, out)
        if not m:
            raise ValueError("unexpected monitor answer: %r" % out)
        return int(m.group(1), 16)


class LedSampler(threading.Thread):
    """Sample SYS_LED while a guest marker says a phase is on."""

    def __init__(self, sock_path, period, show, out, ncpus=4):
        super().__init__(daemon=True)
        self.ncpus = ncpus
        self.sock_path = sock_path
        self.period = period
        self.show = show
        self.out = out
        self.lock = threading.Lock()
        self.phase = None
        self.phases = []
        self.stop = threading.Event()
        self.error = None

    def mark(self, name, cpu):
        with self.lock:
            if self.phase is not None:
                self._close()
            if name == "end":
                self.phase = None
                return
            self.phase = {"phase": name, "cpu": cpu, "start": time.monotonic(),
                          "samples": []}

    def _close(self):
        ph = self.phase
        self.phases.append(ph)
        if self.show and ph["cpu"] is not None:
            self.out("[host] " + self.summary(ph))

    def summary(self, ph):
        """One line of what the LED samples of a phase showed."""
        cpu, s = ph["cpu"], ph["samples"]
        bit = 1 << (2 + cpu)
        others = sum(1 << (2 + c) for c in range(self.ncpus) if c != cpu)
        n = max(len(s), 1)
        lit = sum(1 for _, v in s if v & bit)
        dark = sum(1 for _, v in s if not v & others)
        took = s[-1][0] if s else 0.0
        if ph["phase"] == "busy":
            return ("cpu%d busy %.2f s: its LED lit in %d%% of %d samples; "
                    "the other LEDs dark in %d%%" %
                    (cpu, took, 100 * lit // n, len(s), 100 * dark // n))
        return ("after cpu%d, idle %.2f s: every LED dark in %d%% of %d "
                "samples" % (cpu, took, 100 * sum(
                    1 for _, v in s if not v & (others | bit)) // n, len(s)))

    def run(self):
        try:
            mon = Monitor(self.sock_path)
            while not self.stop.is_set():
                with self.lock:
                    ph = self.phase
                if ph is not None:
                    v = mon.read_word(SYS_LED)
                    with self.lock:
                        if self.phase is ph:
                            ph["samples"].append(
                                (round(time.monotonic() - ph["start"], 3), v))
                self.stop.wait(self.period)
        except (OSError, EOFError, ValueError) as e:
            if not self.stop.is_set():
                self.error = str(e)

    def finish(self):
        with self.lock:
            if self.phase is not None:
                self._close()
                self.phase = None
        self.stop.set()


def qemu_cmd(a, sock):
    cmd = ["qemu-system-arm", "-M", "vexpress-a9", "-smp", str(a.smp),
           "-m", str(a.mem), "-kernel", a.kernel]
    # A firmware image (U-Boot: ci/fit-boot.sh) as --kernel finds its own
    # DTB, initramfs and command line.
    if a.dtb:
        cmd += ["-dtb", a.dtb]
    if a.initrd:
        cmd += ["-initrd", a.initrd]
    if a.append:
        cmd += ["-append", a.append]
    cmd += ["-display", "none", "-no-reboot",
            "-monitor", "unix:%s,server=on,wait=off" % sock]
    if a.interactive:
        cmd += ["-chardev", "stdio,id=con,mux=on,signal=off,logfile=%s" % a.log,
                "-serial", "chardev:con", "-mon", "chardev=con"]
    else:
        cmd += ["-chardev", "stdio,id=con,signal=off", "-serial", "chardev:con"]
    cmd += a.qemu_arg
    return cmd


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--kernel", required=True,
                   help="the zImage, or a firmware image such as U-Boot's")
    p.add_argument("--dtb", help="the DTB (none: the firmware's)")
    p.add_argument("--initrd")
    p.add_argument("--append", default="")
    p.add_argument("--smp", type=int, default=int(os.environ.get("SMP", 4)))
    p.add_argument("--mem", default=os.environ.get("MEM", "512"))
    p.add_argument("--timeout", type=float, default=600,
                   help="wall-clock seconds before the guest is killed")
    p.add_argument("--log", required=True, help="console log file")
    p.add_argument("--quiet", action="store_true",
                   help="do not copy the console to stdout")
    p.add_argument("--interactive", action="store_true")
    p.add_argument("--led-report", help="write LED samples as JSON here")
    p.add_argument("--led-show", action="store_true")
    p.add_argument("--led-period", type=float, default=0.02)
    p.add_argument("--qemu-arg", action="append", default=[],
                   help="extra argument for qemu-system-arm")
    a = p.parse_args()

    for f in (a.kernel, a.dtb, a.initrd):
        if f and not os.path.isfile(f):
            sys.exit("qemu.py: %s is missing" % f)
    os.makedirs(os.path.dirname(os.path.abspath(a.log)), exist_ok=True)

    tmp = tempfile.mkdtemp(prefix="vexpress-")
    sock = os.path.join(tmp, "monitor.sock")
    env = dict(os.environ, QEMU_AUDIO_DRV="none")

    def out(line):
        if not a.quiet:
            sys.stdout.write(line + ("\r\n" if a.interactive else "\n"))
            sys.stdout.flush()

    sampler = LedSampler(sock, a.led_period, a.led_show, out, a.smp)
    cmd = qemu_cmd(a, sock)
    if a.interactive:
        open(a.log, "w").close()
        proc = subprocess.Popen(cmd, env=env)
        src = open(a.log, "rb")
    else:
        proc = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT)
        src = proc.stdout
        log = open(a.log, "wb")
    sampler.start()

    deadline = time.monotonic() + a.timeout
    panic_at = None
    status = None
    pending = b""
    fd = src.fileno()
    try:
        while True:
            now = time.monotonic()
            if now > deadline:
                status = 124
                break
            if panic_at is not None and now > panic_at:
                status = 3
                break
            if a.interactive:
                # the chardev's logfile: read what QEMU appended
                data = src.read()
                if not data:
                    if proc.poll() is not None:
                        break
                    time.sleep(0.05)
                    continue
            else:
                r, _, _ = select.select([fd], [], [], 0.05)
                if not r:
                    continue
                data = os.read(fd, 65536)
                if not data:
                    break
                log.write(data)
                log.flush()
            pending += data
            while b"\n" in pending:
                raw, pending = pending.split(b"\n", 1)
                line = raw.decode(errors="replace").rstrip("\r")
                if not a.interactive:
                    out(line)
                m = LED_MARK.search(line)
                if m:
                    sampler.mark(m.group(1),
                                 int(m.group(2)) if m.group(2) else None)
                if panic_at is None and PANIC.search(line):
                    panic_at = time.monotonic() + 2
    except KeyboardInterrupt:
        status = 130
    finally:
        sampler.finish()
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if not a.interactive:
            log.close()

    if status is None:
        status = proc.returncode
    if status == 124:
        print("qemu.py: guest killed: no power-off within %.0f s (hung?)"
              % a.timeout, file=sys.stderr)
    elif status == 3:
        print("qemu.py: guest panicked", file=sys.stderr)
    if a.led_report:
        with open(a.led_report, "w") as f:
            json.dump({"error": sampler.error, "phases": sampler.phases}, f,
                      indent=1)
    if sampler.error and sampler.phases:
        print("qemu.py: LED sampling failed: %s" % sampler.error,
              file=sys.stderr)
    try:
        os.unlink(sock)
        os.rmdir(tmp)
    except OSError:
        pass
    return status


if __name__ == "__main__":
    sys.exit(main())
