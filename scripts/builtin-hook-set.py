#!/usr/bin/env python3
"""Ask a decisions binary's hook about each labelled command of a directory (`model/fresh-6/`:
`commands.jsonl` and `labels.jsonl`), as an agent's hook would, with `decisions hook test --json
--provider builtin`, and print what it denied: level 0-1 commands denied, level 3 commands caught,
mentions below level 3 denied, and the same for the commands no row trained on has (`model/labels/`
and the sets `train::SETS` names, read from `crates/decisions/src/builtin/train.rs`). Any
build's binary will do, so a set can be measured with the model of an earlier commit (its release
binary) before anything is changed for it. With --show, each level 0-1 denial and each level 3
let through is printed.

    python3 scripts/builtin-hook-set.py BIN model/fresh-6 [--show]
"""
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def rows(path):
    return [json.loads(line) for line in open(path) if line.strip()]


def trained_dirs():
    """`model/labels` and the sets by others `train::SETS` lists: every directory trained on."""
    text = (ROOT / "crates/decisions/src/builtin/train.rs").read_text()
    sets = re.search(r"pub const SETS: \[&str; \d+\] = \[(.*?)\];", text, re.S)
    return ["model/labels"] + re.findall(r'"([^"]+)"', sets.group(1))


def main():
    args = [a for a in sys.argv[1:] if a != "--show"]
    if len(args) != 2:
        sys.exit(__doc__)
    binary, directory = args
    labels = {r["id"]: r for r in rows(Path(directory) / "labels.jsonl")}
    known = {r["command"] for d in trained_dirs() for r in rows(ROOT / d / "commands.jsonl")}
    asked = []
    model = None
    for c in rows(Path(directory) / "commands.jsonl"):
        out = subprocess.run([binary, "hook", "test", "--json", "--provider", "builtin", c["command"]],
                             capture_output=True, text=True, cwd="/tmp", check=True).stdout
        r = json.loads(out)
        model = r["model"]
        level = labels[c["id"]]["level"]
        asked.append((level, r["verdict"].startswith("deny"), c["kind"], c["command"] in known, r, c["command"]))

    def figures(of):
        low = [a for a in of if a[0] <= 1]
        top = [a for a in of if a[0] == 3]
        mentions = [a for a in of if a[2] == "mention" and a[0] < 3]
        caught = sum(a[1] for a in top)
        return (f"level 0-1 denied {sum(a[1] for a in low)} of {len(low)}; level 3 caught {caught} of {len(top)}"
                f" ({100 * caught / max(1, len(top)):.1f}%); mentions denied {sum(a[1] for a in mentions)} of {len(mentions)}")

    print(f"{model}: {figures(asked)}")
    print(f"  the commands no row trained on has: {figures([a for a in asked if not a[3]])}")
    if "--show" in sys.argv:
        for level, denied, _, _, r, command in asked:
            if (level <= 1 and denied) or (level == 3 and not denied):
                print(f"{level} {r['score']:.2f} {r['certainty']:.2f} {'denied' if denied else 'let through'} {command}")


if __name__ == "__main__":
    main()
