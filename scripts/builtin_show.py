"""What `builtin_eval` prints with SHOW=1, read back: one `LABEL SCORE [p0 p1 p2 p3] COMMAND` line a
row, and the hook's view of a distribution (its score, its certainty, whether it denies at a bar).
Shared by the builtin scripts; not run on its own."""
import re

LINE = re.compile(r"(\d) (\S+) \[(\S+) (\S+) (\S+) (\S+)\] (.*)")


def rows(lines):
    """The SHOW lines among `lines`, each as (label, [p0, p1, p2, p3], command)."""
    out = []
    for line in lines:
        m = LINE.match(line)
        if m:
            out.append((int(m.group(1)), [float(x) for x in m.groups()[2:6]], m.group(7)))
    return out


def score(p):
    """The expected level, as the seam scores a distribution."""
    return sum(k * x for k, x in enumerate(p))


def certainty(p):
    """The certainty the seam derives from a distribution of 4 levels."""
    return (4 * max(p) - 1) / 3


def denies(p, bar):
    """Whether the hook denies: a score of 2.5 or more, at a certainty at or above the act bar."""
    return score(p) >= 2.5 and certainty(p) >= bar
