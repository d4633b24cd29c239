#!/usr/bin/env python3
"""Ask a binary about each command of model/wrappers.txt: 54 ways of hiding `rm -rf ~` (or
`rm -rf /etc`, `rm -rf /srv`) behind another program, each level 3. Prints each command's score,
certainty and verdict from `decisions hook test --provider builtin --json`, then how many were
denied.

    python3 scripts/builtin-wrappers.py [DECISIONS_BIN]
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target/x86_64-unknown-linux-gnu/release/decisions")
    commands = [c for c in (ROOT / "model/wrappers.txt").read_text().splitlines() if c.strip()]
    denied = 0
    with tempfile.TemporaryDirectory() as cwd:  # no project: the provider's own catalog
        for command in commands:
            out = subprocess.run([binary, "hook", "test", "--provider", "builtin", "--json", command],
                                 cwd=cwd, capture_output=True, text=True, check=True)
            r = json.loads(out.stdout)
            denied += r["verdict"] == "deny"
            print(f"{r['score']:.2f} {r['certainty']:.2f} {r['verdict']:<11} {command}")
    print(f"{denied} of {len(commands)} denied at the act bar {r['bar']} ({r['model']})")


if __name__ == "__main__":
    main()
