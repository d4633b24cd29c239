#!/usr/bin/env python3
"""The sample triage report in docs/consumers.md, reproduced: eight issues in the array `gh issue list
--json number,title,body` prints, piped into `decisions triage -`, answered by a loopback
System One stub whose answers are scripted per issue title (no model is asked: the sample shows
the report's shape, not anyone's judgement).

    python3 bench/triage_sample.py

Builds the release binary first. Talks only to 127.0.0.1.
"""
import http.server
import json
import pathlib
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from cli_latency import build  # noqa: E402

KINDS = ["bug", "feature", "question", "docs", "noise"]
# number, title, body; then kind, its confidence, severity score, its confidence, P(needs repro)
ISSUES = [
    (412, "decisions ask exits 2 when the state file is missing",
     "Running `decisions ask --catalog routing --questions effort --state-file nope.json` exits 2 with no message. "
     "Expected exit 64 and an error naming the file. Version 0.4.1 on Linux.", ("bug", 0.93, 2.1, 0.9, 0.04)),
    (415, "API key printed in the event log",
     "After a 401 the event log line contains my full TYPESAFE_API_KEY. Steps: set a wrong key, run decisions ask, "
     "read .leopold/decisions.log.", ("bug", 0.96, 2.9, 0.93, 0.05)),
    (418, "Support a --json flag on status", "It would help scripts if `decisions status` could print JSON.",
     ("feature", 0.94, 0.9, 0.9, 0.03)),
    (420, "How do I set the timeout for one call?", "Is there a flag for the timeout of a single ask?",
     ("question", 0.91, 0.2, 0.92, 0.04)),
    (421, "BUY CHEAP FOLLOWERS NOW", "best prices visit our site", ("noise", 0.97, 0.0, 0.95, 0.02)),
    (423, "it doesnt work", "", ("bug", 0.58, 1.7, 0.4, 0.97)),
    (425, "README names --state-json but the flag is --state",
     "The README's example uses --state-json, which does not exist.", ("docs", 0.9, 0.8, 0.88, 0.03)),
    (427, "Crash when the ledger is on a full disk",
     "With the disk full, `decisions ledger record` panics instead of reporting ENOSPC. Reproduced with a 1 MB tmpfs.",
     ("bug", 0.9, 2.3, 0.74, 0.2)),
]
SCRIPT = {title: answers for _, title, _, answers in ISSUES}


def answers(title):
    kind, kind_c, sev, sev_c, repro = SCRIPT[title]
    peak = (kind_c * 4 + 1) / 5
    low = min(int(sev), 3)
    levels = [0.0] * 4
    levels[low] = 1 - (sev - low)
    if low < 3:
        levels[low + 1] = sev - low
    return {
        "kind": {"type": "choice", "choice": kind, "confidence": kind_c,
                 "probabilities": {k: round(peak if k == kind else (1 - peak) / 4, 3) for k in KINDS}},
        "severity": {"type": "score", "score": sev, "confidence": sev_c,
                     "probabilities": {str(i): round(p, 3) for i, p in enumerate(levels)}},
        "needs_repro": {"type": "noul", "noul": repro},
    }


class Stub(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        body = json.dumps({"model": "stub-scripted", "answers": answers(request["state"]["item"]["title"])}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


def main():
    binary = build(["decisions-cli"]) / "decisions"
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Stub)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    root = pathlib.Path(tempfile.mkdtemp())
    (root / ".git").mkdir()
    (root / ".leopold" / "decisions").mkdir(parents=True)
    jev = json.loads(subprocess.run([binary, "providers"], capture_output=True, check=True).stdout)["providers"]["jev"]
    jev["endpoint"] = f"http://127.0.0.1:{server.server_port}/v1/systemone"
    (root / ".leopold" / "decisions" / "config.json").write_text(
        json.dumps({"version": "decisions/1.0", "provider": "jev", "providers": {"jev": jev}}))
    gh = json.dumps([{"number": n, "title": t, "body": b} for n, t, b, _ in ISSUES], indent=2)
    out = subprocess.run([binary, "triage", "-", "--no-record"], input=gh.encode(), cwd=root,
                         env={"TYPESAFE_API_KEY": "sample-key", "PATH": "/usr/bin:/bin"}, capture_output=True, check=True)
    sys.stdout.write(out.stdout.decode())
    server.shutdown()


if __name__ == "__main__":
    main()
