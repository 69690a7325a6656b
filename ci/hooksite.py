#!/usr/bin/env python3
"""Show that the idle hook costs nothing when nobody listens.

Reads an ARM vmlinux: finds the static-key sites of sched_idle_notifier_key
in the jump table (struct jump_entry: code, target, key, 32-bit words),
checks that each lies in do_idle() and that the instruction there is a NOP
(the kernel patches it into a branch only when a listener registers).
Prints one line per site and exits 0 when there are sites and every one is
a NOP, 1 otherwise (e.g. CONFIG_JUMP_LABEL off: the hook is then a load
and a test, not patched code).

  ci/hooksite.py VMLINUX
"""

import struct
import subprocess
import sys

OBJDUMP = "arm-linux-gnueabihf-objdump"
NM = "arm-linux-gnueabihf-nm"


def symbols(vmlinux):
    out = subprocess.run([NM, "-S", vmlinux], check=True,
                         capture_output=True, text=True).stdout
    syms = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4:
            syms[f[3]] = (int(f[0], 16), int(f[1], 16))
        elif len(f) == 3:
            syms.setdefault(f[2], (int(f[0], 16), 0))
    return syms


def read_vaddr(vmlinux, addr, size):
    """Bytes at a virtual address, from the ELF32 section that holds it."""
    with open(vmlinux, "rb") as f:
        elf = f.read()
    if elf[:4] != b"\x7fELF" or elf[4] != 1 or elf[5] != 1:
        raise SystemExit("hooksite: %s is not a 32-bit little-endian ELF"
                         % vmlinux)
    shoff, = struct.unpack_from("<I", elf, 0x20)
    shentsize, shnum = struct.unpack_from("<HH", elf, 0x2e)
    for i in range(shnum):
        (_, stype, _, saddr, soff, ssize) = struct.unpack_from(
            "<IIIIII", elf, shoff + i * shentsize)
        if stype != 8 and saddr <= addr and addr + size <= saddr + ssize:
            return elf[soff + addr - saddr: soff + addr - saddr + size]
    raise SystemExit("hooksite: address %#x is in no section" % addr)


def insn(vmlinux, addr):
    out = subprocess.run([OBJDUMP, "-d", "--start-address=%#x" % addr,
                          "--stop-address=%#x" % (addr + 4), vmlinux],
                         check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.strip().startswith("%x:" % addr):
            return line.split("\t", 2)[-1].strip()
    return "?"


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    vmlinux = sys.argv[1]
    syms = symbols(vmlinux)
    for need in ("do_idle", "sched_idle_notifier_key"):
        if need not in syms:
            print("hooksite: no symbol %s in %s" % (need, vmlinux))
            return 1
    if ("__start___jump_table" not in syms or
            syms["__start___jump_table"][0] == syms["__stop___jump_table"][0]):
        print("hooksite: no jump table: CONFIG_JUMP_LABEL is off, the hook "
              "is a load and a test of the key")
        return 1
    start = syms["__start___jump_table"][0]
    stop = syms["__stop___jump_table"][0]
    idle, idle_size = syms["do_idle"]
    key = syms["sched_idle_notifier_key"][0]
    table = read_vaddr(vmlinux, start, stop - start)
    sites = []
    for off in range(0, len(table) - 11, 12):
        code, target, k = struct.unpack_from("<III", table, off)
        if k & ~3 == key:
            sites.append((code, target))
    good = bool(sites)
    if not sites:
        print("hooksite: sched_idle_notifier_key has no site")
    for code, target in sorted(sites):
        ins = insn(vmlinux, code)
        inside = idle <= code < idle + idle_size
        ok = inside and "nop" in ins
        good &= ok
        print("%s site %#x (do_idle+%#x) -> %#x: %s" %
              ("ok  " if ok else "BAD ", code, code - idle, target, ins)
              if inside else
              "BAD  site %#x outside do_idle: %s" % (code, ins))
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
