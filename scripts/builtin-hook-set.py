#!/usr/bin/env python3
"""Ask a decisions binary's hook about each labelled command of a directory (`model/fresh-6/`:
`commands.jsonl` and `labels.jsonl`), as an agent's hook would, with `decisions hook test --json
--provider builtin`, and print what it denied: level 0-1 commands denied, level 3 commands caught,
mentions below level 3 denied, and the same for the commands no row trained on has (`model/labels/`
and the sets `train::SETS` names, read from `crates/decisions/src/builtin/train.rs`). Any
build's binary will do, so a set can be measured with the model of an earlier commit (its release
binary) before anything is changed for it. With --show, each level 0-1 denial and each level 3
let through is printed.

With --compare, two builds are asked about every command of every labelled set by others
(`model/fresh*/`), and each verdict that differs is printed, better (a level 0-1 command no longer
denied, a level 3 command now caught), worse, or on a level 2 command, with the totals: how a
reading of the same weights is checked before it is committed.

With --count, every command of every labelled set by others that a regular expression finds is
asked of one build, and the count per level is printed with how many were denied (and, with --show,
each command): how the evidence for a reading is counted before it is written.

    python3 scripts/builtin-hook-set.py BIN model/fresh-6 [--show]
    python3 scripts/builtin-hook-set.py BIN model/fresh-{42..423}    (several directories, pooled)
    python3 scripts/builtin-hook-set.py --compare OLD_BIN NEW_BIN
    python3 scripts/builtin-hook-set.py --count BIN 'REGEX' [--show]
"""
import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def rows(path):
    return [json.loads(line) for line in open(path) if line.strip()]


def trained_dirs():
    """`model/labels` and the sets by others `train::SETS` lists: every directory trained on."""
    text = (ROOT / "crates/decisions/src/builtin/train.rs").read_text()
    sets = re.search(r"pub const SETS: \[&str; \d+\] = \[(.*?)\];", text, re.S)
    return ["model/labels"] + re.findall(r'"([^"]+)"', sets.group(1))


def ask(binary, command):
    """The hook's answer to one command, as `decisions hook test --json --provider builtin` gives it."""
    out = subprocess.run([binary, "hook", "test", "--json", "--provider", "builtin", command],
                         capture_output=True, text=True, cwd="/tmp", check=True).stdout
    return json.loads(out)


def ask_all(binary, commands):
    """The hook's answers to many commands, three at a time."""
    with ThreadPoolExecutor(3) as pool:
        return list(pool.map(lambda command: ask(binary, command), commands))


def denies(answer):
    """Whether the hook's answer denies."""
    return answer["verdict"].startswith("deny")


def every_labelled():
    """(set, level, command) for every command of every labelled set by others."""
    return [(d.name, labels[c["id"]]["level"], c["command"])
            for d in sorted((ROOT / "model").glob("fresh*")) if (d / "labels.jsonl").exists()
            for labels in [{r["id"]: r for r in rows(d / "labels.jsonl")}]
            for c in rows(d / "commands.jsonl")]


def count(binary, pattern, show):
    """The commands of every labelled set by others that `pattern` finds: per level, how many and
    how many the build denies."""
    found = re.compile(pattern)
    cases = [case for case in every_labelled() if found.search(case[2])]
    answers = ask_all(binary, [case[2] for case in cases])
    for level in range(4):
        here = [a for case, a in zip(cases, answers) if case[1] == level]
        denied = sum(map(denies, here))
        print(f"level {level}: {len(here)} found, {denied} denied")
    if show:
        for (where, level, command), a in zip(cases, answers):
            verdict = "denied" if denies(a) else "let through"
            print(f"{level} {a['score']:.2f} {a['certainty']:.2f} {verdict} {where} {command[:160]}")


def compare(old, new):
    """Every verdict that differs between two builds, over every labelled set by others."""
    cases = every_labelled()
    commands = [case[2] for case in cases]
    answers = zip(ask_all(old, commands), ask_all(new, commands))
    better = worse = 0
    for (where, level, command), (a, b) in zip(cases, answers):
        was, now = denies(a), denies(b)
        if was != now:
            good, bad = (level == 3) == now and level != 2, (level == 3) != now and level != 2
            better, worse = better + good, worse + bad
            tag = "better" if good else "worse" if bad else "level 2"
            print(f"{tag} {where} level {level} {a['score']:.2f} -> {b['score']:.2f} {command[:120]}")
    print(f"{len(cases)} commands: {better} better, {worse} worse")


def main():
    if sys.argv[1:2] == ["--compare"] and len(sys.argv) == 4:
        return compare(sys.argv[2], sys.argv[3])
    if sys.argv[1:2] == ["--count"] and len(sys.argv) in (4, 5):
        return count(sys.argv[2], sys.argv[3], "--show" in sys.argv[4:])
    args = [a for a in sys.argv[1:] if a != "--show"]
    if len(args) < 2:
        sys.exit(__doc__)
    binary, directories = args[0], args[1:]
    known = {r["command"] for d in trained_dirs() for r in rows(ROOT / d / "commands.jsonl")}
    # Several directories are pooled, as one set.
    cases = [(labels[c["id"]]["level"], c)
             for directory in directories
             for labels in [{r["id"]: r for r in rows(Path(directory) / "labels.jsonl")}]
             for c in rows(Path(directory) / "commands.jsonl")]
    answers = ask_all(binary, [c["command"] for _, c in cases])
    asked = [(level, denies(r), c["kind"], c["command"] in known, r, c["command"])
             for (level, c), r in zip(cases, answers)]
    model = answers[-1]["model"] if answers else None

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
