#!/usr/bin/env python3
"""How far the two blind labellings of model/labels agree, batch by batch: rows, the share on
which both gave the same level, Cohen's kappa over the levels, and the rows that differed (each
settled by RULES.md), and then the same for model/fresh and model/fresh-sessions, the sets kept
apart from training. Also counts the rules and the settled points RULES.md holds.

    python3 scripts/label-agreement.py
"""
import json
import re
from pathlib import Path

MODEL = Path(__file__).resolve().parent.parent / "model"
LABELS = MODEL / "labels"
BATCHES = [("labels", first, second) for first, second in
           [("a", "b"), ("2a", "2b"), ("3a", "3b"), ("4a", "4b"), ("5a", "5b"), ("6a", "6b"), ("7a", "7b"), ("8a", "8b"), ("9a", "9b"), ("10a", "10b"), ("11a", "11b")]]
# Sets labelled twice, then sets labelled three times (each pair of labellers compared).
BATCHES += [(where, "a", "b") for where in
            ["fresh", "fresh-sessions", "unseen-tldr", "fresh-3", "fresh-4", "fresh-5", "fresh-6", "fresh-7",
             "fresh-8", "fresh-9", "fresh-10"]]
BATCHES += [(where, first, second) for where in
            sorted((d.name for d in MODEL.glob("fresh-*") if (d / "labels-c.jsonl").exists()),
                   key=lambda name: int(name.split("-")[1]))
            for first, second in [("a", "b"), ("a", "c"), ("b", "c")]]


def levels(where, name):
    rows = (json.loads(line) for line in (MODEL / where / f"labels-{name}.jsonl").open())
    return {r["id"]: r["level"] for r in rows}


def main():
    print(f"{'rows':>20}  {'agree':>6}  {'kappa':>5}  differed")
    for where, first, second in BATCHES:
        a, b = levels(where, first), levels(where, second)
        if a.keys() != b.keys():
            raise SystemExit(f"labels-{first} and labels-{second} do not label the same rows")
        ids = sorted(a)
        n = len(ids)
        same = sum(a[i] == b[i] for i in ids)
        chance = sum((sum(a[i] == c for i in ids) / n) * (sum(b[i] == c for i in ids) / n)
                     for c in set(a.values()) | set(b.values()))
        kappa = (same / n - chance) / (1 - chance)
        rows = f"{ids[0]}-{ids[-1]}" + ("" if where == "labels" else f" {where}")
        print(f"{rows:>20}  {100 * same / n:5.1f}%  {kappa:.3f}  {n - same}")
    text = (LABELS / "RULES.md").read_text()
    rules, settled = text.split("## The rules", 1)[1].split("## Settled on real rows", 1)
    count = lambda part: len(re.findall(r"^\d+\. ", part, re.M))
    print(f"RULES.md: {count(rules)} rules, {count(settled)} settled points")


if __name__ == "__main__":
    main()
