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
BATCHES += [(where, first, second) for where in ["fresh-11", "fresh-12", "fresh-13", "fresh-14", "fresh-15", "fresh-16",
                                               "fresh-17", "fresh-18", "fresh-19", "fresh-20", "fresh-21",
                                               "fresh-22", "fresh-23", "fresh-24",
                                               "fresh-25", "fresh-26", "fresh-27", "fresh-28", "fresh-29", "fresh-30", "fresh-31", "fresh-32",
                                               "fresh-33", "fresh-34", "fresh-35", "fresh-36", "fresh-37",
                                               "fresh-38", "fresh-39", "fresh-40", "fresh-41",
                                               "fresh-42", "fresh-43", "fresh-44", "fresh-45", "fresh-46",
                                               "fresh-47", "fresh-48", "fresh-49", "fresh-50", "fresh-51",
                                               "fresh-52", "fresh-53", "fresh-54", "fresh-55",
                                               "fresh-56", "fresh-57", "fresh-58", "fresh-59",
                                               "fresh-60", "fresh-61", "fresh-62", "fresh-63", "fresh-64",
                                               "fresh-65", "fresh-66", "fresh-67", "fresh-68", "fresh-69",
                                               "fresh-70", "fresh-71", "fresh-72", "fresh-73", "fresh-74", "fresh-75", "fresh-76", "fresh-77", "fresh-78", "fresh-79", "fresh-80", "fresh-81", "fresh-82", "fresh-83", "fresh-84", "fresh-85", "fresh-86", "fresh-87", "fresh-88", "fresh-89", "fresh-90", "fresh-91", "fresh-92", "fresh-93", "fresh-94", "fresh-95", "fresh-96", "fresh-97", "fresh-98", "fresh-99", "fresh-100", "fresh-101", "fresh-102", "fresh-103", "fresh-104", "fresh-105", "fresh-106", "fresh-107", "fresh-108", "fresh-109", "fresh-110", "fresh-111", "fresh-112", "fresh-113", "fresh-114", "fresh-115", "fresh-116", "fresh-117", "fresh-118", "fresh-119", "fresh-120", "fresh-121", "fresh-122", "fresh-123", "fresh-124", "fresh-125", "fresh-126", "fresh-127", "fresh-128", "fresh-129", "fresh-130", "fresh-131", "fresh-132", "fresh-133", "fresh-134", "fresh-135"]
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
