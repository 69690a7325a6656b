#!/usr/bin/env python3
"""Refresh kernel-patches/0000-cover-letter.patch from the kernel tree.

The cover letter's subject and text (the "blurb") are written by hand in
that file; its shortlog and diffstat come from git and go stale whenever a
patch changes.  This keeps the hand-written parts and the Date, and
regenerates the rest with git format-patch --cover-letter, followed by
the maintainers and lists of each patch (scripts/get_maintainer.pl).
Everything from the shortlog on is generated.

  ci/cover.py KERNEL_TREE PATCH_DIR
"""

import email.policy
import email.utils
import os
import re
import subprocess
import sys
import tempfile
import textwrap

AUTHOR = ("Seed 437de848 maintainers",
          "maintainers@users.noreply.a-seed-437de848.example")
SHORTLOG = re.compile(r"^\S.* \(\d+\):$")
# Maintainers and lists only: no people from git history, nor the signers
# of the commits that Fixes: tags name (the tree has no history).
GET_MAINTAINER = ["scripts/get_maintainer.pl", "--no-git", "--no-git-fallback",
                  "--no-fixes", "--no-rolestats"]


def maintainers(tree, patches):
    """The generated section that follows the diffstat: for each patch
    file in PATCHES (in order), its number and subject (wrapped as git
    wraps the shortlog) and what get_maintainer.pl says, run in TREE, one
    address a line."""
    out = textwrap.wrap("Maintainers and lists, per patch (" +
                        " ".join(GET_MAINTAINER) + "):", 72)
    for patch in patches:
        with open(patch) as f:
            msg = email.message_from_file(f, policy=email.policy.default)
        subject = re.sub(r"^\[PATCH (\d+/\d+)\] ", r"\1 ", msg["Subject"])
        # A fixed hash seed: get_maintainer.pl lists lists of the same
        # rank in its hashes' order, which perl otherwise varies by run.
        who = subprocess.run(["perl"] + GET_MAINTAINER + [os.path.abspath(patch)],
                             cwd=tree, check=True, stdout=subprocess.PIPE,
                             env=dict(os.environ, PERL_HASH_SEED="0",
                                      PERL_PERTURB_KEYS="0"),
                             text=True).stdout.split("\n")
        out += [""] + textwrap.wrap(subject, 72, subsequent_indent="    ")
        for w in (w for w in who if w.strip()):
            # A commit log line is at most 75 characters (checkpatch):
            # a long address goes on two lines, name then <address>.
            name, _, addr = w.rpartition(" <")
            if len("  " + w) > 75 and name:
                out += ["  " + name, "    <" + addr]
            else:
                out.append("  " + w)
    return "\n".join(out) + "\n"


def main():
    tree, outdir = sys.argv[1], sys.argv[2]
    path = os.path.join(outdir, "0000-cover-letter.patch")
    subject, blurb, date = "*** SUBJECT HERE ***", "*** BLURB HERE ***\n", None
    if os.path.exists(path):
        with open(path) as f:
            old = f.read().split("\n")
        for line in old:
            if line.startswith("Subject: "):
                subject = re.sub(r"^Subject: \[PATCH[^\]]*\] ", "", line)
            if line.startswith("Date: ") and date is None:
                date = line
            if line == "":
                break
        body = old[old.index("") + 1:]
        end = next((i for i, l in enumerate(body) if SHORTLOG.match(l)),
                   len(body))
        blurb = "\n".join(body[:end]).rstrip("\n") + "\n"

    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["git", "-C", tree, "-c", "user.name=" + AUTHOR[0],
                        "-c", "user.email=" + AUTHOR[1], "format-patch", "-q",
                        "--zero-commit", "--no-signature", "--cover-letter",
                        "-o", tmp, "base..HEAD"], check=True)
        with open(os.path.join(tmp, "0000-cover-letter.patch")) as f:
            new = f.read()
        patches = sorted(os.path.join(tmp, p) for p in os.listdir(tmp)
                         if p != "0000-cover-letter.patch")
        new = new.rstrip("\n") + "\n\n" + maintainers(tree, patches) + "\n"
    new = new.replace("*** SUBJECT HERE ***", subject)
    new = new.replace("*** BLURB HERE ***\n", blurb)
    if date:
        new = re.sub(r"^Date: .*$", date, new, count=1, flags=re.M)
    # Subject lines longer than 78 columns are folded by git: join them.
    with open(path, "w") as f:
        f.write(new)


if __name__ == "__main__":
    main()
