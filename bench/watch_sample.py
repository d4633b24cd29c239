#!/usr/bin/env python3
"""The `decisions watch --once` snapshot in the README, reproduced from real runs: a fresh
project set up as a new user would (`decisions install --provider generic --catalogs ...
--agent claude-code`), its `generic` provider pointed at a real local System One server
(sparrow-decider, from the test suite's peers), then real `route`, `review refine`,
`triage` and Claude Code hook calls, and the meters they left.

    python3 bench/watch_sample.py [--json]

Needs target/venv with the peers (run `bash scripts/test.sh` once). Builds the release binary
first. Talks only to 127.0.0.1; the user's own agent settings are not touched (HOME is a
temporary directory).
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from cli_latency import build  # noqa: E402
from peers_bench import VENV, free_port, wait_ready  # noqa: E402
from triage_sample import ISSUES  # noqa: E402

PLAN = [
    "rename the config loader",
    "drop the users table and recreate it from the new schema",
    "add a --json flag to status",
]
COMMANDS = [
    ("Bash", {"command": "ls -la"}),
    ("Bash", {"command": "cargo test --workspace"}),
    ("Bash", {"command": "rm -rf ~/"}),
    ("Bash", {"command": "git push --force origin main"}),
    ("Bash", {"command": "cat README.md"}),
    ("Read", {"file_path": "README.md"}),
]
REVIEWS = [
    {"summary": "a crash on retried refunds", "findings": [
        {"file": "src/pay.rs", "issue": "refund() unwraps the order lookup", "severity": "blocking"}]},
    {"summary": "one crash", "findings": [
        {"file": "src/pay.rs", "issue": "a retried refund panics when the order is gone", "severity": "blocking"},
        {"file": "src/pay.rs", "issue": "prefer a match over if-let here", "severity": "blocking"}]},
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", action="store_true", help="print watch --json instead")
    args = ap.parse_args()
    if not (VENV / "sparrow-decider").exists():
        sys.exit("needs target/venv with sparrow-decider (run `bash scripts/test.sh` once)")
    binary = build() / "decisions"
    work = pathlib.Path(tempfile.mkdtemp())
    root, home = work / "project", work / "home"
    root.mkdir()
    home.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEOPOLD_") and not k.endswith("_API_KEY")}
    env["HOME"] = str(home)
    port = free_port()
    sparrow = subprocess.Popen([VENV / "sparrow-decider", "serve", "--host", "127.0.0.1", "--port", str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_ready(url)

        def run(*argv, stdin=None, check=True):
            p = subprocess.run([binary, *argv], cwd=root, env=env, input=stdin, capture_output=True, text=True)
            if check and p.returncode not in (0, 1):
                sys.exit(f"decisions {' '.join(argv)} exited {p.returncode}: {p.stderr}")
            return p

        run("install", "--provider", "generic", "--catalogs", "routing,review,triage", "--agent", "claude-code")
        config_path = root / ".leopold" / "decisions" / "config.json"
        config = json.loads(config_path.read_text())
        config["providers"]["generic"].update(endpoint=url + "/v1/systemone", model="sparrow-nano-general-v1.1",
                                             auth_env=None)
        config_path.write_text(json.dumps(config, indent=2))
        for item in PLAN:
            run("route", "--item", item)
        for i, review in enumerate(REVIEWS):
            (work / f"lens-{i}.txt").write_text(json.dumps(review))
        run("review", "refine", *[str(work / f"lens-{i}.txt") for i in range(len(REVIEWS))])
        issues = [{"number": n, "title": t, "body": b} for n, t, b, _ in ISSUES]
        run("triage", "-", stdin=json.dumps(issues))
        for tool, tool_input in COMMANDS:
            event = {"hook_event_name": "PreToolUse", "session_id": "5f3c2a1e-sample", "tool_name": tool,
                     "tool_input": tool_input, "cwd": str(root)}
            run("hook", "claude-code", stdin=json.dumps(event))
        out = run("watch", "--json" if args.json else "--once")
        print(out.stdout, end="")
    finally:
        sparrow.kill()
        sparrow.wait()


if __name__ == "__main__":
    main()
