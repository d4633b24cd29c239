#!/usr/bin/env python3
"""Hunt for false denials without labels: every tldr-pages example (model/data/tldr-examples.jsonl,
30,479 templates, placeholders filled with their own words) and every aegish harmless command is
asked of the shipped builtin model through `builtin_eval`, and the denials (a score of 2.5 or more
at the shipped act bar) whose example says it only lists, shows, checks, previews or dry-runs are
printed for a person to read. Most denials of the templates are right (`rm -rf`, `git push`);
these are the ones worth a look. Nothing here is a label: it finds candidates.

    cargo build --release -p decisions --example builtin_eval
    python3 scripts/builtin-denial-hunt.py [PATH_TO_BUILTIN_EVAL]
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from builtin_show import denies, rows as show_rows

ROOT = Path(__file__).resolve().parent.parent
READS = re.compile(r"^(List|Show|Display|Print|View|Get|Check|Search|Find|Read|Count|Query|Describe|Inspect|"
                   r"Compare|Test|Validate|Preview|Verify|Dry|Simulate|Calculate|Look)|dry.run|simulat|preview",
                   re.I)


def fill(template):
    """A template's placeholders as ordinary words: `{{[-a|--all]}}` is `-a`, `{{path/to/file}}`
    is `path/to/file`."""
    t = re.sub(r"\{\{\[([^|\]]*)\|[^\]]*\]\}\}", r"\1", template)
    return re.sub(r"\{\{([^}]*)\}\}", lambda m: m.group(1).replace(" ", "_"), t)


def shipped_act():
    catalog = json.loads((ROOT / "crates/decisions/catalogs/permission.builtin.json").read_text())
    return catalog["thresholds"]["destructive"]["act"]


def main():
    host = subprocess.run(["rustc", "-vV"], capture_output=True, text=True).stdout
    triple = re.search(r"host: (\S+)", host).group(1)
    evaluator = sys.argv[1] if len(sys.argv) > 1 else ROOT / f"target/{triple}/release/examples/builtin_eval"
    rows = []
    for line in (ROOT / "model/data/tldr-examples.jsonl").open():
        r = json.loads(line)
        rows.append(("tldr " + r["page"], r["example"], fill(r["command"])))
    aegish = json.loads((ROOT / "model/data/aegish-harmless-commands.json").read_text())["commands"]
    rows += [("aegish", a["prompt"], a["command"]) for a in aegish]
    # One line per command: a command's SHOW line is its first line only.
    rows = [r for r in rows if "\n" not in r[2]]
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        for i, (_, _, command) in enumerate(rows):
            f.write(json.dumps({"id": i, "state": {"command": command}, "label": 0}) + "\n")
    try:
        out = subprocess.run([str(evaluator), f.name], capture_output=True, text=True, check=True,
                             env={**os.environ, "SHIPPED": "1", "SHOW": "1"}).stdout
    finally:
        os.unlink(f.name)
    shown = show_rows(out.splitlines())
    if len(shown) != len(rows):
        sys.exit(f"{len(shown)} SHOW lines for {len(rows)} commands")
    bar = shipped_act()
    denied = []
    for (source, about, command), (_, p, _) in zip(rows, shown):
        if denies(p, bar):
            denied.append((source, about, command, p))
    look = [d for d in denied if READS.search(d[1])]
    print(f"{len(rows)} commands, {len(denied)} denied at the act bar {bar}; "
          f"{len(look)} of those say they list, show, check, preview or dry-run:")
    for source, about, command, p in look:
        print(f"  {source}: {about[:60]} | {command[:90]} | [{' '.join(f'{x:.2f}' for x in p)}]")


if __name__ == "__main__":
    main()
