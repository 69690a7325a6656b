#!/usr/bin/env python3
"""Unit tests of ci/lava.py: no build, no boot, no LAVA lab.

    python3 ci/test_lava.py

Writes both jobs for a made-up build folder and checks them with LAVA's own
job schema (lava_common, Debian's lava-common; those tests are skipped
without it), and runs the monitor's pattern the way LAVA's dispatcher does
(pexpect: re.DOTALL, a search over the output received so far, the end
string first on a tie) over KTAP lines and over the recorded console of
ci/testdata, sent in pieces, against ci/check.py's reading of it.
"""

import contextlib
import hashlib
import io
import os
import re
import subprocess
import sys
import tempfile
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check  # noqa: E402  (ci/check.py: the KTAP reader of make check)
import lava  # noqa: E402

try:
    lava.lava_schemas()
    HAVE_LAVA = True
except ImportError:
    HAVE_LAVA = False
NEED_LAVA = unittest.skipUnless(HAVE_LAVA, "no lava_common (apt-get install "
                                "lava-common)")

SAMPLE = os.path.join(HERE, "testdata", "console-sample.log")


def args(build, out, **kw):
    a = dict(build=build, variant="builtin", base_url=None, out=out,
             dtb=None, smp=4, mem=512, append="", minutes=None,
             uboot_device_type="vexpress-ca9")
    a.update(kw)
    return lava.defaults(types.SimpleNamespace(**a))


def write_jobs(a):
    with contextlib.redirect_stdout(io.StringIO()):
        lava.jobs(a)


def monitor(job, console, chunk=None, index=0):
    """What LAVA's TestMonitorAction records from console with the job's
    monitor index (they run one after the other: each starts at its start
    string), received chunk characters at a time: [(case, result)], and
    whether the end string came."""
    mon = job["actions"][-1]["test"]["monitors"][index]
    start, end, pattern = (re.compile(mon[k], re.DOTALL)
                           for k in ("start", "end", "pattern"))
    chunk = chunk or len(console)
    buf, started, got = "", False, []
    for i in range(0, len(console), chunk):
        buf += console[i:i + chunk]
        while True:
            if not started:
                m = start.search(buf)
                if not m:
                    break
                started, buf = True, buf[m.end():]
                continue
            # pexpect: the earliest match, the first pattern on a tie
            best = None
            for kind, rx in (("end", end), ("result", pattern)):
                m = rx.search(buf)
                if m and (best is None or m.start() < best[1].start()):
                    best = (kind, m)
            if best is None:
                break
            kind, m = best
            buf = buf[m.end():]
            if kind == "end":
                return got, True
            g = m.groupdict()
            result = mon["fixupdict"].get(g["result"], g["result"])
            case = re.sub(r"\W+", "_", g["test_case_id"].strip().lower())
            got.append((case, result))
    return got, False


class Jobs(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.build = os.path.join(self.tmp.name, "build")
        self.out = os.path.join(self.tmp.name, "jobs")
        self.a = args(self.build, self.out)
        write_jobs(self.a)
        self.qemu = lava.load(os.path.join(self.out, "qemu-builtin.yaml"))
        self.uboot = lava.load(os.path.join(self.out, "uboot-builtin.yaml"))

    def tearDown(self):
        self.tmp.cleanup()

    @NEED_LAVA
    def test_lava_schema_accepts_both(self):
        lava.check(self.qemu)
        lava.check(self.uboot)

    @NEED_LAVA
    def test_lava_schema_is_not_vacuous(self):
        bad = lava.qemu_job(self.a)
        bad["actions"][-1]["test"]["monitors"][0]["name"] = "check builtin"
        with self.assertRaises(Exception):
            lava.check(bad)
        bad = lava.qemu_job(self.a)
        bad["context"]["smp"] = 4      # not a context variable LAVA knows
        with self.assertRaises(Exception):
            lava.check(bad)
        bad = lava.uboot_job(self.a)
        del bad["actions"][1]["boot"]["commands"]
        with self.assertRaises(Exception):
            lava.check(bad)

    def test_qemu_job(self):
        q = self.qemu
        self.assertEqual(q["device_type"], "qemu")
        self.assertEqual(q["timeouts"]["job"], {"minutes": 40})
        self.assertEqual(q["context"]["machine"], "vexpress-a9")
        self.assertEqual(q["context"]["cpu"], "cortex-a9")
        self.assertEqual(q["context"]["memory"], 512)
        self.assertEqual(q["context"]["extra_options"], ["-smp 4"])
        images = q["actions"][0]["deploy"]["images"]
        self.assertEqual(images["kernel"]["image_arg"],
                         '-kernel {kernel} -append "console=ttyAMA0 '
                         'mode=check loglevel=3"')
        self.assertEqual(images["ramdisk"]["url"], "file://" + os.path.join(
            self.build, "initramfs-builtin.cpio.gz"))
        self.assertNotIn("sha256sum", images["dtb"])   # no such file
        # the monitor's wait, on LAVA before and after 2026.07
        self.assertEqual(q["actions"][1]["boot"]["timeouts"],
                         {"execute-qemu": {"minutes": 20}})
        self.assertEqual(q["timeouts"]["connections"],
                         {"lava-test-monitor": {"minutes": 20}})

    def test_uboot_job(self):
        u = self.uboot
        deploy, boot = u["actions"][0]["deploy"], u["actions"][1]["boot"]
        self.assertEqual(deploy["to"], "tftp")
        self.assertTrue(deploy["kernel"]["url"].endswith(
            "/build/fit/vexpress-ca9-builtin.itb"))
        self.assertNotIn("type", deploy["kernel"])   # no uImage wrapping
        self.assertEqual(boot["timeouts"], {"connect-device": {"minutes": 20}})
        self.assertIn("tftp 0x68000000 {KERNEL}", boot["commands"])
        self.assertIn("setenv bootargs 'console=ttyAMA0,38400n8 mode=check "
                      "loglevel=3'", boot["commands"])
        self.assertEqual(boot["commands"][-1],
                         "bootm 0x68000000#conf-vexpress-v2p-ca9")

    def test_pattern_survives_yaml(self):
        for job in (self.qemu, self.uboot):
            mon = job["actions"][-1]["test"]["monitors"][0]
            self.assertEqual(mon["pattern"], lava.KTAP_RESULT)
            self.assertEqual(mon["name"], "check-builtin")

    def test_base_url_and_sha256(self):
        dtb = os.path.join(self.build, "vexpress-v2p-ca9-cpufreq.dtb")
        os.makedirs(self.build)
        with open(dtb, "wb") as f:
            f.write(b"\xd0\x0d\xfe\xed")
        a = args(self.build, self.out, variant="module-debug",
                 base_url="https://ci.example/b/7/")
        write_jobs(a)
        job = lava.load(os.path.join(self.out, "qemu-module-debug.yaml"))
        images = job["actions"][0]["deploy"]["images"]
        self.assertEqual(images["kernel"]["url"], "https://ci.example/b/7/"
                         "obj-module-debug/arch/arm/boot/zImage")
        self.assertEqual(images["dtb"]["sha256sum"], hashlib.sha256(
            b"\xd0\x0d\xfe\xed").hexdigest())
        self.assertEqual(job["timeouts"]["job"], {"minutes": 100})

    @NEED_LAVA
    def test_cli(self):
        tool = os.path.join(HERE, "lava.py")
        files = [os.path.join(self.out, f) for f in sorted(os.listdir(
            self.out))]
        r = subprocess.run([sys.executable, tool, "validate"] + files,
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(files[0]) as f:
            text = f.read()
        with open(files[0], "w") as f:
            f.write(text.replace("visibility: public", "visibility: all"))
        r = subprocess.run([sys.executable, tool, "validate"] + files,
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertIn("visibility", r.stderr)


class Pattern(unittest.TestCase):
    def lines(self, *lines):
        console = "### TESTS BEGIN\r\n%s\r\n### TESTS END\r\n" % \
            "\r\n".join(lines)
        got, ended = monitor(lava.qemu_job(args("b", "o")), console)
        self.assertTrue(ended)
        return got

    def test_sample_lines(self):
        self.assertEqual(self.lines(
            "ok 3 - 12-idle-notifier-hotplug",
            "    not ok 2 - a burst ramps within timer_rate + 2 ticks",
            "ok 4 - 30-x # SKIP no CONFIG_X",
        ), [("12_idle_notifier_hotplug", "pass"),
            ("a_burst_ramps_within_timer_rate_2_ticks", "fail"),
            ("30_x", "skip")])

    def test_other_lines(self):
        self.assertEqual(self.lines(
            "        ok 1 idle_notifier_test_static_key",     # KUnit: no "-"
            "    not ok 4 - drop bound # TODO bound missed",  # expected fail
            "not ok 5 - 50-kselftest # timed out after 900 s",
            "\tok 1 - a tab-indented case",
            "    ok 2 - skipped in name only, SKIP",
            "KTAP version 1",
            "1..5",
            "# running 20-interactive",
            "    # ok 1 - a diagnostic, not a result",
            "[   12.345678] cpufreq: ok 1 - a kernel message",
            "ok 6",                                           # no name
        ), [("idle_notifier_test_static_key", "pass"),
            ("drop_bound", "skip"),
            ("50_kselftest", "fail"),
            ("a_tab_indented_case", "pass"),
            ("skipped_in_name_only_skip", "pass")])

    def test_kernel_log_monitor(self):
        """The second monitor reads the kernel log after the tests: no case
        for a clean one; a failed case, named by the line, for each line
        ci/check.py would call unclean."""
        job = lava.qemu_job(args("b", "o"))
        log = ["### TESTS END", "### DMESG BEGIN",
               "[    0.000000] Booting Linux on physical CPU 0x0",
               "[    1.000000] cpufreq: interactive: WARNINGS are not it",
               "### DMESG END"]
        clean = "\r\n".join(log) + "\r\n"
        self.assertEqual(monitor(job, clean, index=1), ([], True))
        log.insert(3, "[   12.5] WARNING: CPU: 1 PID: 7 at kernel/irq/chip.c:1")
        log.insert(4, "[   12.6] Call trace: ")
        for chunk in (None, 1, 5):
            self.assertEqual(monitor(job, "\r\n".join(log) + "\r\n", chunk,
                                     index=1),
                             ([("warning_cpu_1_pid_7_at_kernel_irq_chip_c_1",
                                "fail"), ("call_trace_", "fail")], True))
        for line in log:
            self.assertEqual(bool(check.SPLAT.search(line)),
                             "WARNING:" in line or "Call trace" in line)

    def test_recorded_console_in_pieces(self):
        """The sample console, with a serial line's CRLF, received whole,
        a character at a time and in odd pieces: every KTAP result line, in
        console order (children before their parent), with the status
        ci/check.py gives it."""
        with open(SAMPLE) as f:
            lines = f.read().splitlines()
        tests, _ = check.section(lines, "### TESTS BEGIN", "### TESTS END")
        want = [(re.sub(r"\W+", "_", name.lower()), result)
                for name, result in lava.expected_cases(tests)]
        self.assertEqual(len(want), 12)
        console = "\r\n".join(lines) + "\r\n"
        job = lava.qemu_job(args("b", "o"))
        for chunk in (None, 1, 7, 64):
            self.assertEqual(monitor(job, console, chunk), (want, True),
                             "chunk %s" % chunk)


def lava_log(records):
    """A lava-run log of these (lvl, msg) records, each line as LAVA's
    logger writes it (lava_common.log.dump: one flow-style YAML mapping,
    every string double-quoted), or a close copy without lava_common."""
    try:
        from lava_common.log import dump
    except ImportError:
        import json

        def dump(d):
            return json.dumps(d)
    return "".join(dump({"dt": "2026-12-07T11:00:00.%06d" % i, "lvl": lvl,
                         "msg": msg}) + "\n"
                   for i, (lvl, msg) in enumerate(records))


class Run(unittest.TestCase):
    """make lava-run's reading of lava-run's log and its comparison with
    make check's KTAP document."""
    KTAP = ["KTAP version 1", "1..2",
            "    KTAP version 1", "    1..2",
            "    ok 1 - first case",
            "    not ok 2 - second: 40 ms > 38 ms",
            "not ok 1 - 20-x",
            "ok 2 - 30-y # SKIP no LEDs",
            "ok 3"]

    def result(self, name, result, suite="check-builtin"):
        return ("results", {"definition": suite,
                            "case": re.sub(r"\W+", "_", name.lower()),
                            "level": "3.1", "result": result,
                            "extra": {"test_case_id": name}})

    def read(self, records):
        with tempfile.NamedTemporaryFile("w", suffix=".log") as f:
            f.write("not a record\n" + lava_log(records))
            f.flush()
            return lava.read_lava_log(f.name)

    def test_expected_cases(self):
        self.assertEqual(lava.expected_cases(self.KTAP), [
            ("first case", "pass"), ("second: 40 ms > 38 ms", "fail"),
            ("20-x", "fail"), ("30-y", "skip")])

    def test_log_agrees(self):
        results, console, job, errors = self.read([
            ("info", "Waiting for start message: ### TESTS BEGIN"),
            ("target", "### TESTS BEGIN"),
            ("target", "    ok 1 - first case \x1b[0m"),
            self.result("first case", "pass"),
            self.result("second: 40 ms > 38 ms", "fail"),
            self.result("20-x", "fail"),
            self.result("30-y", "skip"),
            ("error", "a dispatcher error"),
            self.result("job", "pass", suite="lava")])
        self.assertEqual(job, "pass")
        self.assertEqual(errors, ["a dispatcher error"])
        self.assertEqual(console[1], "    ok 1 - first case \x1b[0m")
        self.assertEqual(len(results), 4)
        self.assertEqual(lava.compare(results, lava.expected_cases(self.KTAP)),
                         [])

    def test_log_disagrees(self):
        results, _, job, _ = self.read([
            self.result("first case", "pass"),
            self.result("second: 40 ms > 38 ms", "pass"),
            self.result("20-x", "fail")])
        self.assertIsNone(job)
        self.assertEqual(lava.compare(results, lava.expected_cases(self.KTAP)), [
            "case 2: LAVA second: 40 ms > 38 ms: pass, make check "
            "second: 40 ms > 38 ms: fail",
            "case 4: LAVA none, make check 30-y: skip"])

    def test_device_config(self):
        """The device dictionary rendered with LAVA's qemu.jinja2 (when
        make lava-run has unpacked lava-server's templates) runs the job's
        QEMU: qemu-system-arm, the board, the CPU, -smp and the NIC."""
        types_dir = os.path.join(os.path.dirname(HERE), "build", "lava",
                                 "lava-server", "usr/share/lava-server",
                                 "device-types")
        if not os.path.isfile(os.path.join(types_dir, "qemu.jinja2")):
            self.skipTest("no lava-server templates (make lava-run)")
        try:
            import yaml
        except ImportError:
            self.skipTest("no yaml")
        try:
            text = lava.device_config(lava.qemu_job(args("b", "o")), types_dir)
        except ImportError:
            self.skipTest("no jinja2")
        qemu = yaml.safe_load(text)["actions"]["boot"]["methods"]["qemu"]
        p = qemu["parameters"]
        self.assertEqual(p["command"], "qemu-system-arm")
        opts = " ".join(p["options"])
        for want in ("-cpu cortex-a9", "-machine vexpress-a9", "-m 512",
                     "model=lan9118", "-nographic"):
            self.assertIn(want, opts)
        self.assertEqual(p["extra"], ["-smp 4"])


if __name__ == "__main__":
    unittest.main()
