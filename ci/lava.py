#!/usr/bin/env python3
"""Write LAVA v2 job definitions for a kernel variant, and check them.

    ci/lava.py jobs --build BUILD --variant V [--base-url URL] --out DIR
    ci/lava.py validate FILE...

"jobs" writes two jobs that run the test image (make check's mode=check
boot) in a LAVA lab:

  DIR/qemu-V.yaml   device type "qemu" (LAVA's own qemu.jinja2): QEMU's
                    vexpress-a9 with the zImage, the board DT and the
                    initramfs (-smp 4 -m 512, as make check)
  DIR/uboot-V.yaml  a real V2P-CA9 under U-Boot: the FIT image of make fit
                    (build/fit/vexpress-ca9-V.itb) by TFTP, booted with
                    the commands of boot/boot.cmd

The guest has no login shell: /init runs initramfs/run-tests.sh, which
prints one KTAP document between "### TESTS BEGIN" and "### TESTS END" and
powers off.  So the test action is a LAVA "monitor": it waits for the start
string, turns every KTAP result line up to the end string into a LAVA test
case (see KTAP_RESULT) and stops there.

An artifact's URL is --base-url followed by its path inside BUILD (e.g.
obj-V/arch/arm/boot/zImage), so publishing the build folder as it is works;
without --base-url the URLs are file:// URLs of BUILD's files, for a local
lava-run.  Files that exist get a sha256sum, which LAVA checks.

"validate" checks each file with LAVA's own job schema (lava_common, from
Debian's lava-common package) and that every monitor pattern compiles;
exits 1 with the error of the first file that fails.

    ci/lava.py run --build BUILD --variant V --out DIR --check-out CHECK

"run" runs DIR/qemu-V.yaml here with Debian's lava-dispatcher (lava-run,
no server): the device dictionary of a "qemu" device, rendered from
LAVA's own device-type templates (those of Debian's lava-server package,
unpacked into DIR/lava-server: the server itself is not needed), the
job's log in DIR/run-V/, the guest's console cut from it
(DIR/run-V/console.log).  Then it holds LAVA's results against make
check's for the same image (CHECK/V.ktap, of the images CHECK/V.images.json
names): every KTAP case a LAVA test case, in the same order, with the same
verdict; the job complete; the console free of kernel warnings.  Exits 1
if they disagree, 2 if make check's results are of another image (or of
other test arguments).
"""

import argparse
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from urllib.parse import quote

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(TOP, "boot"))
import board  # noqa: E402  (boot/board.py: a variant's files)

try:
    import yaml
except ImportError:      # JSON is YAML too; then we write and read JSON
    yaml = None

# The test boot's kernel command line: boot/board.py's console and
# ci/check.py's "mode=check loglevel=3".  Under U-Boot the console also
# names its speed, as boot/boot.cmd does.
APPEND = "mode=check loglevel=3"
CONSOLE = "console=ttyAMA0"
UBOOT_CONSOLE = "console=ttyAMA0,38400n8"

# boot/boot.cmd: where the .itb goes, and the configuration bootm boots.
FIT_ADDR = "0x68000000"
FIT_CONF = "conf-vexpress-v2p-ca9"

# One KTAP result line as a LAVA monitor pattern.  LAVA hands the pattern
# to pexpect, which compiles it with re.DOTALL and searches the console
# output that has arrived so far (not line by line: no ^ or $), and takes
# from the match the named groups "test_case_id" and "result"; "result" is
# mapped through the fixupdict (FIXUP), and the case name becomes
# re.sub(r"\W+", "_", test_case_id.strip().lower()).  Hence:
#  - the match starts at a line's newline and ends before the next one,
#    which it requires ((?=\r*\n)): a line that has only partly arrived
#    never matches with half its name; and [^\r\n], never ".";
#  - the nesting depth is the leading blanks, which the pattern skips: a
#    subtest's case is named by its own description only ("    not ok 2 -
#    a burst ramps within timer_rate + 2 ticks" is
#    a_burst_ramps_within_timer_rate_2_ticks), not by its parent's, which
#    KTAP prints after its children.  Top-level names are the test
#    programs' (kunit, 12-idle-notifier-hotplug, ...: unique); nested ones
#    may repeat across tests, and then LAVA records each result under the
#    same name, in console order;
#  - "result" is one named group (re allows no second one): a lookahead at
#    the status word that captures the "SKIP" or "TODO" of the line's
#    directive when it has one, and the status word ("ok", "not ok")
#    otherwise.  TODO (an expected failure) is a skip, as in ci/check.py;
#  - the "- " after the number is optional (KUnit's lines have none); a
#    line without a description ("ok 3") is not matched.
KTAP_RESULT = (
    r"\n[ \t]*"
    r"(?=(?:[^#\r\n]*#[ \t]*(?=SKIP|TODO))?(?P<result>SKIP|TODO|not ok|ok))"
    r"(?:not )?ok[ \t]+\d+[ \t]+(?:-[ \t]+)?"
    r"(?P<test_case_id>[^#\s][^#\r\n]*?)"
    r"[ \t]*(?:#[^\r\n]*)?(?=\r*\n)")
FIXUP = {"ok": "pass", "not ok": "fail", "SKIP": "skip", "TODO": "skip"}


def timeouts(minutes):
    """The job's time-outs for a test boot that takes up to about half of
    minutes.  The monitor waits for each match (and for the start string)
    at most half of it too: the longest silence is the boot up to "###
    TESTS BEGIN" or one test program (run-tests.sh stops one after 900 s).
    LAVA up to 2026.06 (Debian's 2023.01 too) waits for a monitor's match
    as long as the console's pexpect time-out, the time-out of the action
    that opened the console (see boot_timeouts); since 2026.07 as long as
    the lava-test-monitor connection time-out."""
    return {"job": {"minutes": minutes},
            "action": {"minutes": 5},
            "connections": {"lava-test-monitor": {"minutes": minutes // 2}}}


def boot_timeouts(minutes, opener):
    """A boot block's time-outs: 5 minutes to boot, but the action named
    opener, which starts the console (QEMU, or the serial line) and is
    done at once, gets the monitor's wait (see timeouts): in the block's
    "timeouts", which take precedence over its "timeout"."""
    return {"timeout": {"minutes": 5},
            "timeouts": {opener: {"minutes": minutes // 2}}}


def splat_pattern():
    """The kernel log monitor's pattern: a line of the kernel log that
    ci/check.py's rules (SPLATS) call unclean is a failed case named by
    the line (from the rule's match on).  "result" captures nothing, and
    the fixupdict makes that a fail."""
    return (r"\n[^\r\n]*?(?P<test_case_id>(?:%s)[^\r\n]*)(?P<result>)"
            r"(?=\r*\n)" % "|".join(check_module().SPLATS))


def test_action(minutes, variant):
    """Two monitors, one after the other on the console: the tests' KTAP
    (suite check-VARIANT), then the kernel log the guest prints after them
    (suite kernel-log-VARIANT: no case when it is clean), which also keeps
    the whole log in the job's."""
    return {"test": {
        "timeout": {"minutes": minutes - 5},
        "monitors": [{
            "name": "check-%s" % variant,
            "start": "### TESTS BEGIN",
            "end": "### TESTS END",
            "pattern": KTAP_RESULT,
            "fixupdict": FIXUP,
        }, {
            "name": "kernel-log-%s" % variant,
            "start": "### DMESG BEGIN",
            "end": "### DMESG END",
            "pattern": splat_pattern(),
            "fixupdict": {"": "fail"},
        }]}}


def artifact(build, base_url, path):
    """{url[, sha256sum]} of a file of the build."""
    if base_url:
        url = base_url.rstrip("/") + "/" + quote(os.path.relpath(path, build))
    else:
        url = "file://" + quote(os.path.abspath(path))
    art = {"url": url}
    sha = board.sha256_of(path)
    if sha:
        art["sha256sum"] = sha
    return art


def job_head(a, device_type, board_name, append):
    """What both jobs start with: type, name, time-outs, metadata."""
    return {
        "device_type": device_type,
        "job_name": "check %s: %s" % (a.variant, board_name),
        "timeouts": timeouts(a.minutes),
        "visibility": "public",
        "priority": "medium",
        "metadata": {"variant": a.variant, "board": board_name.split()[0],
                     "cmdline": append},
    }


def qemu_job(a):
    """QEMU's vexpress-a9 through LAVA's qemu device type: its template
    builds "qemu-system-arm -cpu CPU -machine MACHINE -nographic -net
    nic,MODEL,... -net NETDEVICE -m MEMORY -monitor none EXTRA_OPTIONS"
    from the job's context, then adds each image's image_arg."""
    art = lambda p: artifact(a.build, a.base_url, p)  # noqa: E731
    append = " ".join([CONSOLE, APPEND, a.append]).strip()
    return {
        **job_head(a, "qemu", "vexpress-a9 (qemu)", append),
        "context": {
            "arch": "arm",
            "machine": "vexpress-a9",
            "cpu": "cortex-a9",
            "memory": a.mem,
            # The board's own NIC: the template's default, virtio, is a PCI
            # card and vexpress-a9 has no PCI (as LAVA's example
            # qemu-vexpress-a9.yaml).
            "model": "model=lan9118",
            "netdevice": "user",
            "extra_options": ["-smp %d" % a.smp],
        },
        "actions": [
            {"deploy": {
                "to": "tmpfs",
                "timeout": {"minutes": 5},
                "images": {
                    "kernel": dict(art(board.kernel_of(a.build, a.variant)),
                                   image_arg='-kernel {kernel} -append "%s"'
                                   % append),
                    "dtb": dict(art(a.dtb), image_arg="-dtb {dtb}"),
                    # A gzip'd cpio that the kernel unpacks: no
                    # "compression", LAVA passes it on as it is.
                    "ramdisk": dict(art(board.initrd_of(a.build, a.variant)),
                                    image_arg="-initrd {ramdisk}"),
                }}},
            # No prompts: nothing to log in to; QEMU starts, the monitor
            # takes over the console.
            {"boot": {"method": "qemu", "media": "tmpfs",
                      **boot_timeouts(a.minutes, "execute-qemu")}},
            test_action(a.minutes, a.variant),
        ]}


def uboot_job(a):
    """A V2P-CA9 board with U-Boot (vexpress_ca9x4): the FIT image by TFTP,
    then boot/boot.cmd's bootm.  The kernel has no "type", so LAVA leaves
    the .itb as it is (no uImage wrapping) and substitutes only {SERVER_IP}
    and {KERNEL} (its TFTP path) in these commands; the device dictionary
    gives the U-Boot prompt and how to interrupt autoboot, and LAVA waits
    for U-Boot's "Starting kernel" after the last command."""
    itb = os.path.join(a.build, "fit", "vexpress-ca9-%s.itb" % a.variant)
    append = " ".join([UBOOT_CONSOLE, APPEND, a.append]).strip()
    return {
        **job_head(a, a.uboot_device_type, "V2P-CA9 (U-Boot, FIT)", append),
        "actions": [
            {"deploy": {"to": "tftp", "timeout": {"minutes": 5},
                        "kernel": artifact(a.build, a.base_url, itb)}},
            {"boot": {
                "method": "u-boot",
                **boot_timeouts(a.minutes, "connect-device"),
                "commands": [
                    "setenv autoload no",
                    "dhcp",
                    "setenv serverip {SERVER_IP}",
                    "tftp %s {KERNEL}" % FIT_ADDR,
                    "setenv bootargs '%s'" % append,
                    "bootm %s#%s" % (FIT_ADDR, FIT_CONF),
                ]}},
            test_action(a.minutes, a.variant),
        ]}


def dump(job, path, what):
    head = ("# LAVA job: %s, written by ci/lava.py.\n"
            "# Each KTAP result line of the guest becomes a test case of the\n"
            "# suite \"%s\", named by its own description (nested ones\n"
            "# too, without their parent's name), with pass/fail/skip.\n"
            % (what, job["actions"][-1]["test"]["monitors"][0]["name"]))
    with open(path, "w") as f:
        f.write(head)
        if yaml:
            yaml.safe_dump(job, f, sort_keys=False, width=1000)
        else:
            json.dump(job, f, indent=1)
            f.write("\n")


def load(path):
    with open(path) as f:
        return yaml.safe_load(f) if yaml else json.loads(
            "".join(l for l in f if not l.startswith("#")))


def debian_import(name):
    """Import module name, from Debian's python3 packages if ours lacks it
    (lava-common, and lava-dispatcher's yaml and jinja2)."""
    try:
        return importlib.import_module(name)
    except ImportError:
        sys.path.append("/usr/lib/python3/dist-packages")
        return importlib.import_module(name)


def lava_schemas():
    """lava_common.schemas (Debian's lava-common)."""
    return debian_import("lava_common.schemas")


def check(job, strict=True):
    """Raise (voluptuous.Invalid, ValueError) unless LAVA's schema accepts
    the job and its monitor patterns compile as pexpect compiles them."""
    lava_schemas().validate(job, strict=strict)
    for action in job["actions"]:
        for mon in action.get("test", {}).get("monitors", []):
            rx = re.compile(mon["pattern"], re.DOTALL)
            if not {"test_case_id", "result"} <= set(rx.groupindex):
                raise ValueError("monitor %s: pattern lacks the "
                                 "test_case_id or result group" % mon["name"])


def check_module():
    """ci/check.py: its KTAP reader and its kernel log rules."""
    sys.path.insert(0, HERE)
    import check
    return check


def expected_cases(ktap_lines):
    """The LAVA test cases a KTAP document makes, in console order (a
    (sub)test's result line follows its children's): (description,
    result) with the monitor's fixupdict applied; a result line without a
    description makes none (KTAP_RESULT needs one)."""
    top, _ = check_module().parse_ktap(ktap_lines)
    # parse_ktap names a case without a description "test N"; a case that
    # really is called so is in the document as such.
    named = set(re.findall(r"ok[ \t]+\d+[ \t]+(?:-[ \t]+)?(test \d+)\b",
                           "\n".join(ktap_lines)))
    out = []

    def walk(c):
        for x in c.children:
            walk(x)
        if not re.fullmatch(r"test \d+", c.name) or c.name in named:
            verdict = "skip" if c.skipped or c.todo else \
                ("pass" if c.ok else "fail")
            out.append((c.name, verdict))
    for c in top:
        walk(c)
    return out


def read_lava_log(path):
    """lava-run's log (one YAML mapping a line): (results, console lines,
    the job's own result, its errors)."""
    y = debian_import("yaml")
    results, console, job, errors = [], [], None, []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            try:
                rec = y.safe_load(line)
            except y.YAMLError:
                continue
            lvl, msg = rec.get("lvl"), rec.get("msg")
            if lvl == "target":
                console.append(msg if isinstance(msg, str) else str(msg))
            elif lvl == "results" and isinstance(msg, dict):
                if msg.get("definition") == "lava" and msg.get("case") == "job":
                    job = msg.get("result")
                elif msg.get("definition") != "lava":
                    results.append(msg)
            elif lvl == "error":
                errors.append(str(msg))
    return results, console, job, errors


def compare(lava_results, want):
    """Differences between LAVA's test cases (of the check suite) and the
    KTAP document's, both in console order: a list of lines, empty when
    they agree."""
    got = [((r.get("extra") or {}).get("test_case_id", r.get("case")),
            r.get("result")) for r in lava_results]
    diffs = []
    for i in range(max(len(got), len(want))):
        g = got[i] if i < len(got) else None
        w = want[i] if i < len(want) else None
        if g != w:
            diffs.append("case %d: LAVA %s, make check %s" % (
                i + 1, "%s: %s" % g if g else "none",
                "%s: %s" % w if w else "none"))
    return diffs


def lava_server_templates(out):
    """LAVA's device-type templates, from Debian's lava-server package
    (downloaded and unpacked under out, not installed)."""
    root = os.path.join(out, "lava-server")
    types = os.path.join(root, "usr/share/lava-server/device-types")
    if os.path.isfile(os.path.join(types, "qemu.jinja2")):
        return types
    os.makedirs(root, exist_ok=True)
    r = subprocess.run(["apt-get", "download", "lava-server"], cwd=out,
                       capture_output=True, text=True)
    if r.returncode:
        sys.exit("lava: apt-get download lava-server: %s" % r.stderr.strip())
    deb = sorted(f for f in os.listdir(out)
                 if f.startswith("lava-server_") and f.endswith(".deb"))[-1]
    subprocess.run(["dpkg-deb", "-x", os.path.join(out, deb), root],
                   check=True)
    return types


def device_config(job, types):
    """The device configuration lava-run takes for a "qemu" device: the
    device dictionary (it only extends LAVA's qemu.jinja2) rendered with
    the job's context, as a LAVA server does when it schedules the job."""
    jinja2 = debian_import("jinja2")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader([types]),
                             trim_blocks=True, autoescape=False)
    dictionary = "{% extends 'qemu.jinja2' %}\n"
    return env.from_string(dictionary).render(**job.get("context", {}))


def run(a):
    """make lava-run: see the module's documentation."""
    defaults(a)
    check = check_module()
    job_path = os.path.join(a.out, "qemu-%s.yaml" % a.variant)
    have = os.path.join(a.check_out, "%s.images.json" % a.variant)
    ktap = os.path.join(a.check_out, "%s.ktap" % a.variant)
    want = board.images(a.build, a.variant, a.dtb, a.append)
    try:
        with open(have) as f:
            same = json.load(f) == want
        with open(ktap) as f:
            want_cases = expected_cases(f.read().splitlines())
    except OSError:
        same = False
    if not same:
        print("lava: %s has no make check results of this image and these "
              "arguments (%s); run make check VARIANTS=%s first"
              % (a.check_out, want["args"] or "all tests", a.variant),
              file=sys.stderr)
        return 2
    if a.have_check:
        return 0
    if not shutil.which("lava-run"):
        print("lava: no lava-run: make lava-deps (as root) installs "
              "Debian's lava-dispatcher", file=sys.stderr)
        return 2
    job = load(job_path)
    device = os.path.join(a.out, "qemu-device.yaml")
    with open(device, "w") as f:
        f.write(device_config(job, lava_server_templates(a.out)))
    rundir = os.path.join(a.out, "run-%s" % a.variant)
    shutil.rmtree(rundir, ignore_errors=True)
    os.makedirs(rundir)
    log = os.path.join(rundir, "lava.log")
    print("lava: lava-run %s (log: %s)" % (job_path, log), flush=True)
    t0 = time.monotonic()
    n = {"pass": 0, "fail": 0, "skip": 0}
    with open(log, "w") as logf:
        p = subprocess.Popen(
            ["lava-run", "--job-id", "1", "--output-dir",
             os.path.join(rundir, "out"), "--device", device, job_path],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            errors="replace")
        for line in p.stdout:
            logf.write(line)
            # Progress: the guest's top-level results, as make check's.
            m = re.search(r'"lvl": "target", "msg": "((?:not )?ok \d+ - [^"]*)"',
                          line)
            if m:
                print("lava: %s %5.0f s  %s" % (a.variant,
                                                 time.monotonic() - t0,
                                                 m.group(1)), flush=True)
        status = p.wait()
    results, console, job_result, errors = read_lava_log(log)
    splat_cases = [r for r in results
                   if r.get("definition") == "kernel-log-%s" % a.variant]
    results = [r for r in results
               if r.get("definition") == "check-%s" % a.variant]
    for r in results:
        n[r.get("result")] = n.get(r.get("result"), 0) + 1
    with open(os.path.join(rundir, "console.log"), "w") as f:
        f.write("\n".join(console) + "\n")
    splats = [l for l in console if check.SPLAT.search(l)]
    diffs = compare(results, want_cases)
    print("lava: lava-run exit %d after %.0f s; job %s; %d test cases: "
          "%d pass, %d fail, %d skip" % (
              status, time.monotonic() - t0, job_result, len(results),
              n["pass"], n["fail"], n["skip"]))
    for e in errors[:5]:
        print("lava: error: %s" % e)
    bad = 0
    for what, ok, note in (
            ("the job completed", status == 0 and job_result == "pass",
             "lava-run exit %d, job %s" % (status, job_result)),
            ("its test cases are make check's (%s/%s.ktap), in order, "
             "with the same verdicts" % (a.check_out, a.variant),
             not diffs, "%d differences" % len(diffs)),
            ("the kernel log has no warning, oops or lockdep report "
             "(the console, and LAVA's kernel-log monitor)",
             not splats and not splat_cases,
             (splats[0].strip() if splats else
              str((splat_cases[0].get("extra") or {}).get("test_case_id"))
              if splat_cases else "")[:100])):
        print("%s  %s%s" % ("PASS" if ok else "FAIL", what,
                            "" if ok else ": " + note))
        bad += not ok
    for d in diffs[:20]:
        print("lava:   %s" % d)
    return 1 if bad else 0


def defaults(a):
    """Fill in the options left to their defaults; returns a."""
    if a.dtb is None:
        a.dtb = os.path.join(a.build, "vexpress-v2p-ca9-cpufreq.dtb")
    if a.minutes is None:
        # make check-debug gives a debug kernel's boot 90 minutes.
        a.minutes = 100 if "debug" in a.variant else 40
    return a


def jobs(a):
    defaults(a)
    os.makedirs(a.out, exist_ok=True)
    for name, job, what in (
            ("qemu", qemu_job(a), "QEMU vexpress-a9"),
            ("uboot", uboot_job(a), "V2P-CA9 with U-Boot")):
        path = os.path.join(a.out, "%s-%s.yaml" % (name, a.variant))
        dump(job, path, "%s, %s kernel" % (what, a.variant))
        print("lava: %s" % path)
    return 0


def validate(a):
    for path in a.files:
        try:
            check(load(path))
        except Exception as e:   # voluptuous.Invalid, yaml, re.error, ...
            print("lava: %s: %s: %s" % (path, type(e).__name__, e),
                  file=sys.stderr)
            return 1
        print("lava: %s: valid" % path)
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    j = sub.add_parser("jobs", help="write DIR/qemu-V.yaml, DIR/uboot-V.yaml")
    j.add_argument("--build", default="build")
    j.add_argument("--variant", required=True)
    j.add_argument("--base-url", help="URL of the build folder "
                   "(default: file:// URLs of its files)")
    j.add_argument("--out", required=True)
    j.add_argument("--dtb", help="default BUILD/vexpress-v2p-ca9-cpufreq.dtb")
    j.add_argument("--smp", type=int, default=4)
    j.add_argument("--mem", type=int, default=512)
    j.add_argument("--append", default="", help="more kernel arguments "
                   "(e.g. tests=a,b)")
    j.add_argument("--minutes", type=int, help="job time-out (default 40, "
                   "100 for a debug variant)")
    j.add_argument("--uboot-device-type", default="vexpress-ca9",
                   help="the lab's name for the V2P-CA9 device type")
    j.set_defaults(func=jobs)
    v = sub.add_parser("validate", help="check jobs with LAVA's schema")
    v.add_argument("files", nargs="+")
    v.set_defaults(func=validate)
    r = sub.add_parser("run", help="run DIR/qemu-V.yaml with lava-run and "
                       "compare its results with make check's")
    r.add_argument("--build", default="build")
    r.add_argument("--variant", required=True)
    r.add_argument("--out", required=True)
    r.add_argument("--dtb", help="default BUILD/vexpress-v2p-ca9-cpufreq.dtb")
    r.add_argument("--append", default="", help="the job's test arguments "
                   "(as given to make lava-job)")
    r.add_argument("--check-out", default="build/check",
                   help="make check's results to compare with")
    r.add_argument("--have-check", action="store_true", help="only say "
                   "(exit 0, or 2) if make check's results of this image "
                   "are there")
    r.set_defaults(func=run, minutes=None)
    a = p.parse_args()
    return a.func(a)


if __name__ == "__main__":
    sys.exit(main())
