#!/usr/bin/env python3
"""Bring the model card's table of examples (docs/builtin-model.md, "Examples at the shipped bar")
up to date with a binary: each command in it is asked of `decisions hook test --provider builtin
--json`, and its score, certainty and verdict are written back in place, with the act bar and the
model's name in the line above the table. A note after the verdict is kept as it is; a verdict
that changed is printed, so its note can be read again.

    python3 scripts/builtin-examples.py [DECISIONS_BIN]
"""
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs/builtin-model.md"
ROW = re.compile(r"^\| `(.*?)` \| [\d.]+ \| [\d.]+ \| (deny|stands aside)(.*) \|$")


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target/x86_64-unknown-linux-gnu/release/decisions")
    text = DOC.read_text()
    head, rest = text.split("### Examples at the shipped bar", 1)
    section, tail = rest.split("\n## ", 1)
    lines, changed, facts = [], [], None
    with tempfile.TemporaryDirectory() as cwd:  # no project: the provider's own catalog
        for line in section.split("\n"):
            m = ROW.match(line)
            if m:
                command = m.group(1).replace("\\|", "|")
                out = subprocess.run([binary, "hook", "test", "--provider", "builtin", "--json", command],
                                     cwd=cwd, capture_output=True, text=True, check=True)
                r = json.loads(out.stdout)
                facts = (r["bar"], r["model"])
                verdict = "deny" if r["verdict"] == "deny" else "stands aside"
                if verdict != m.group(2):
                    changed.append(f"{command}: {m.group(2)} -> {verdict}")
                line = f"| `{m.group(1)}` | {r['score']:.2f} | {r['certainty']:.2f} | {verdict}{m.group(3)} |"
            lines.append(line)
    section = "\n".join(lines)
    if facts:
        bar, model = facts
        section = re.sub(r"\(act bar [\d.]+, printed as [\d.]+;", f"(act bar {bar}, printed as {bar:.2f};", section)
        section = re.sub(r"model `decisions-builtin-[0-9a-f]+`:", f"model `{model}`:", section)
    DOC.write_text(head + "### Examples at the shipped bar" + section + "\n## " + tail)
    for c in changed:
        print("verdict changed:", c)


if __name__ == "__main__":
    main()
