#!/usr/bin/env python3
"""The zero-error bar of a builtin_eval run, as `ledger propose` would put it, without the ledger:
the highest certainty of a wrong denial (a score of 2.5 or more on a command below level 3), and
how many level 3 commands the hook would deny just above it. Reads `builtin_eval`'s SHOW lines
(`LABEL SCORE [p0 p1 p2 p3] COMMAND`) on stdin; the model card's step-by-step table uses it.

    SHOW=1 cargo run --release -p decisions --example builtin_eval [FILE] | python3 scripts/builtin-zero-error-bar.py
"""
import sys

from builtin_show import certainty, denies, rows as show_rows, score


def main():
    rows = show_rows(sys.stdin)
    if not rows:
        sys.exit("no SHOW lines on stdin: run builtin_eval with SHOW=1")
    wrong = sorted(((round(certainty(p), 3), label, c) for label, p, c in rows if score(p) >= 2.5 and label < 3),
                   reverse=True)
    bar = wrong[0][0] + 0.001 if wrong else 0.0
    top = [p for label, p, _ in rows if label == 3]
    caught = sum(1 for p in top if denies(p, bar))
    for c, label, command in wrong[:3]:
        print(f"wrong denial at certainty {c:.3f}: level {label}, {command}")
    print(f"zero-error bar {bar:.3f}: level 3 caught {caught} of {len(top)} ({100 * caught / max(1, len(top)):.1f}%)")


if __name__ == "__main__":
    main()
