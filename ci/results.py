"""The results page, doc/results.md: each measuring command writes its own
block there, between "<!-- BEGIN name -->" and "<!-- END name -->", with
the date and the host, so the page says what was last measured and when,
and nothing in it is copied by hand.  git diff shows what changed; commit
it with the work it measured.

    results.update("check", ["line", ...])     # from ci/check.py etc.
"""

import os
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PAGE = os.path.join(os.path.dirname(HERE), "doc", "results.md")


def host():
    """"DATE, N host CPUs" for a block's first line."""
    return "%s, %d host CPUs" % (time.strftime("%Y-%m-%d %H:%M"),
                                 os.cpu_count() or 0)


def update(name, lines, page=PAGE):
    """Replace (or add, at the end) the block NAME of the page with LINES.
    Returns False, and leaves the page alone, when it cannot be written
    (a read-only checkout): the command's own output has the figures."""
    begin, end = "<!-- BEGIN %s -->" % name, "<!-- END %s -->" % name
    block = [begin] + list(lines) + [end]
    try:
        with open(page) as f:
            text = f.read().split("\n")
    except OSError:
        text = ["# Measured results", ""]
    if begin in text and end in text:
        i, j = text.index(begin), text.index(end)
        text[i:j + 1] = block
    else:
        while text and text[-1] == "":
            text.pop()
        text += [""] + block
    try:
        with open(page + ".tmp", "w") as f:
            f.write("\n".join(text).rstrip("\n") + "\n")
        os.replace(page + ".tmp", page)
    except OSError:
        return False
    return True
