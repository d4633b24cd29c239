#!/usr/bin/env python3
"""`decisions mcp` through the MCP Inspector's CLI (a reference MCP client, from npm): it lists
the tools and calls each one, and each result must be what the matching command prints for the
same input. Bad input must come back as the JSON-RPC error naming the argument.

  inspector_check.py INSPECTOR DECISIONS PROJECT NAME

PROJECT holds .leopold (builtin) and a judgment recorded for NAME by `card record-answer` on
PROJECT/card.json. Prints one line a check, `PASS|FAIL check (what)`; exits 1 when any failed.
"""

import json
import subprocess
import sys

inspector, decisions, project, name = sys.argv[1:5]
failed = 0


def report(ok, check, what):
    global failed
    print(f"{'PASS' if ok else 'FAIL'} {check} ({what})", flush=True)
    failed += 0 if ok else 1


def call(method, tool=None, args=None):
    argv = [inspector, "--cli", "--format", "json", "-q", "--method", method]
    if tool:
        argv += ["--tool-name", tool, "--tool-args-json", json.dumps(args or {})]
    argv += ["--", decisions, "mcp"]
    p = subprocess.run(argv, cwd=project, capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def cli(*argv):
    p = subprocess.run([decisions, *argv], cwd=project, capture_output=True, text=True, timeout=60)
    return p.stdout


def documents(text):
    """The JSON a command printed: one document (pretty or not), or one a line."""
    try:
        return [json.loads(text)]
    except ValueError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]


def steady(v):
    """All but the times a run took."""
    if isinstance(v, dict):
        return {k: steady(x) for k, x in v.items() if k != "elapsed_ms"}
    if isinstance(v, list):
        return [steady(x) for x in v]
    return v


rc, out, err = call("tools/list")
try:
    names = [t["name"] for t in json.loads(out)["result"]["tools"]]
except (ValueError, KeyError) as e:
    names = [f"unreadable: {e}: {out[:200]} {err[:200]}"]
expected = ["guard_check", "judgment_recall", "judgment_search", "card_validate", "card_recall", "ask", "route"]
report(names == expected, "tools/list", f"rc {rc}: {', '.join(names)}")

card = json.load(open(f"{project}/card.json"))
question = card["question"]
state = {"command": "git push --force origin main", "cwd": project}
cases = [
    ("guard_check", {"command": "git push --force origin main"}, ["hook", "test", "--json", "git push --force origin main"]),
    ("judgment_recall", {"question": question}, ["judgment", "recall", "--project", name, "--question", question]),
    ("judgment_search", {"query": "storage rewrite"}, ["judgment", "search", "--project", name, "--query", "storage rewrite"]),
    ("card_validate", {"card": card}, ["card", "validate", "--json", "card.json"]),
    ("card_recall", {"card": card}, ["card", "recall", "--project", name, "card.json"]),
    ("ask", {"catalog": "permission", "questions": ["destructive"], "state": state},
     ["ask", "--catalog", "permission", "--questions", "destructive", "--state", json.dumps(state)]),
    ("route", {"item": "run the schema migration for the billing table"},
     ["route", "--no-record", "--no-log", "--repo", ".", "--item", "run the schema migration for the billing table"]),
]
for tool, args, argv in cases:
    rc, out, err = call("tools/call", tool, args)
    try:
        result = json.loads(out)["result"]
        text = result["content"][0]["text"]
        structured = result["structuredContent"]
    except (ValueError, KeyError, IndexError) as e:
        report(False, tool, f"rc {rc}: no result: {e}: {out[:200]} {err[:300]}")
        continue
    printed = cli(*argv)
    want = {"judgments": documents(printed)} if tool == "judgment_search" else json.loads(printed)
    if tool == "judgment_recall":
        want = {"similar_past_decisions": want}
    same_text = steady(documents(text)) == steady(documents(printed))
    ok = rc == 0 and steady(structured) == steady(want) and same_text
    report(ok, tool, f"rc {rc}; the result is what `decisions {' '.join(argv[:2])}` prints" + ("" if ok else f": {out[:300]} vs {printed[:300]}"))

for tool, args, said in [
    ("ask", {"catalog": "permission", "questions": ["destructive"]}, 'ask: "state": missing'),
    ("judgment_append", {"project": "p"}, 'judgment_append'),
    ("guard_check", {"command": "ls", "cwd": "/"}, 'guard_check: "cwd": / is outside the project'),
]:
    rc, out, err = call("tools/call", tool, args)
    try:
        message = json.loads(err.strip().splitlines()[-1])["error"]["message"]
    except (ValueError, KeyError, IndexError):
        message = err.strip()
    report(rc != 0 and said in message, f"{tool}-refused", f"rc {rc}: {message[:160]}")

sys.exit(1 if failed else 0)
