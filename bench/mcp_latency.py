#!/usr/bin/env python3
"""`decisions mcp` latency beside `decisions ask`, in one run on one project (the model inside
the binary, `builtin`: no network, so the figures are ours alone).

- start: spawning `decisions mcp` to its answer to `initialize`, beside one whole `decisions
  ask` (spawn to exit) and `true`;
- per call: one `tools/call` round trip on a server already running (`ask`, `guard_check`,
  `judgment_recall`), beside the commands an agent would otherwise spawn for each
  (`decisions ask`, `decisions hook test --json`, `decisions judgment recall`);
- the hook, which must not pay for the server: `decisions hook claude-code` on its silent path
  and deciding with builtin, this build beside the build before the server (--base, default
  3cff8c0, built once into target/mcp-base).

Runs are interleaved, in a fresh order each round, so machine noise hits all alike; the figure
that matters is the ratio of medians.

    python3 bench/mcp_latency.py [--runs N] [--base REV]

Builds the release binaries first. Talks to nothing but its own child processes.
"""
import argparse
import json
import os
import pathlib
import random
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from cli_latency import ROOT, build, summary, timed  # noqa: E402

STATE = {"command": "git push --force origin main", "cwd": "/work/project"}
QUESTION = "Merge the storage rewrite before the release?"


class Server:
    """A running `decisions mcp`, spoken to over its pipes."""

    def __init__(self, binary, cwd, env):
        self.p = subprocess.Popen([binary, "mcp"], cwd=cwd, env=env, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next = 0

    def request(self, method, params):
        self.next += 1
        line = json.dumps({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params})
        self.p.stdin.write(line.encode() + b"\n")
        self.p.stdin.flush()
        reply = json.loads(self.p.stdout.readline())
        assert reply.get("id") == self.next and "result" in reply, reply
        return reply["result"]

    def initialize(self):
        out = self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                          "clientInfo": {"name": "bench", "version": "1"}})
        self.p.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        self.p.stdin.flush()
        return out

    def call(self, tool, args):
        return self.request("tools/call", {"name": tool, "arguments": args})

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--base", default="3cff8c0", help="the revision before the MCP server")
    args = ap.parse_args()
    binary = str(build(("decisions-cli",)) / "decisions")
    work = pathlib.Path(tempfile.mkdtemp())
    tree = work / "base-tree"
    subprocess.run(["git", "worktree", "add", "--detach", str(tree), args.base], cwd=ROOT, check=True,
                   capture_output=True)
    try:
        out = subprocess.run(["cargo", "build", "--release", "-q", "-p", "decisions-cli", "--message-format=json",
                              "--target-dir", str(ROOT / "target" / "mcp-base")], cwd=tree, check=True,
                             capture_output=True, text=True).stdout
        base = next(m["executable"] for m in map(json.loads, out.splitlines())
                    if m.get("reason") == "compiler-artifact" and (m.get("executable") or "").endswith("/decisions"))
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, capture_output=True)
    try:
        project = work / "project"
        (project / ".git").mkdir(parents=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("LEOPOLD_", "HARNESS_"))}
        env["HOME"] = str(work / "home")
        subprocess.run([binary, "install", "--project", ".", "--agent", "claude-code"], cwd=project, env=env,
                       check=True, capture_output=True)
        card = {"question": QUESTION, "recommendation": "wait", "confidence": "medium", "impact": "storage",
                "impact_score": 70, "diff_summary": "+2000 -1800",
                "options": [{"id": "merge", "label": "Merge now", "consequence": "ships in 1.4"},
                            {"id": "wait", "label": "Wait", "consequence": "ships in 1.5"}]}
        (project / "card.json").write_text(json.dumps(card))
        subprocess.run([binary, "card", "record-answer", "card.json", "--answer", "wait", "--why", "frozen",
                        "--project", "project"], cwd=project, env=env, check=True, capture_output=True)

        ask = [binary, "ask", "--catalog", "permission", "--questions", "destructive", "--state", json.dumps(STATE)]
        hook_test = [binary, "hook", "test", "--json", STATE["command"]]
        recall = [binary, "judgment", "recall", "--project", "project", "--question", QUESTION]
        tools = {
            "ask": ("ask", {"catalog": "permission", "questions": ["destructive"], "state": STATE}),
            "guard_check": ("guard_check", {"command": STATE["command"]}),
            "judgment_recall": ("judgment_recall", {"question": QUESTION}),
        }
        # Sanity: each says what it should.
        _, out = timed(ask, env, project)
        assert json.loads(out)["usable"] is True, out
        _, out = timed(hook_test, env, project)
        assert json.loads(out)["verdict"] == "deny", out
        s = Server(binary, project, env)
        s.initialize()
        assert s.call("ask", tools["ask"][1])["structuredContent"]["usable"] is True
        assert s.call("guard_check", tools["guard_check"][1])["structuredContent"]["verdict"] == "deny"
        assert s.call("judgment_recall", tools["judgment_recall"][1])["structuredContent"]["similar_past_decisions"]

        # The hook: its silent path (no permission.json) and deciding with builtin.
        silent = work / "silent"
        (silent / ".leopold").mkdir(parents=True)
        hook_in = {}
        for name, cwd in (("silent", silent), ("builtin", project)):
            f = work / f"hook-{name}.json"
            f.write_text(json.dumps({"session_id": "s", "transcript_path": "/t", "cwd": str(cwd),
                                     "permission_mode": "default", "hook_event_name": "PreToolUse",
                                     "tool_name": "Bash", "tool_input": {"command": "rm -rf build/"},
                                     "tool_use_id": "t"}))
            hook_in[name] = (f, cwd)
        for b in (binary, base):
            for name, (f, cwd) in hook_in.items():
                _, out = timed([b, "hook", "claude-code"], env, cwd, f)
                assert out == b"", out  # rm -rf build/ is level 2: the hook stands aside

        def hook(b, name):
            f, cwd = hook_in[name]
            return timed([b, "hook", "claude-code"], env, cwd, f)[0]

        def start():
            t0 = time.perf_counter_ns()
            srv = Server(binary, project, env)
            srv.initialize()
            took = (time.perf_counter_ns() - t0) / 1e6
            srv.close()
            return took

        def on_server(name):
            tool, a = tools[name]
            t0 = time.perf_counter_ns()
            s.call(tool, a)
            return (time.perf_counter_ns() - t0) / 1e6

        runs = {
            "mcp start (spawn to initialize answered)": start,
            "decisions ask (a process, builtin)": lambda: timed(ask, env, project)[0],
            "decisions hook test --json (a process)": lambda: timed(hook_test, env, project)[0],
            "decisions judgment recall (a process)": lambda: timed(recall, env, project)[0],
            "mcp tools/call ask": lambda: on_server("ask"),
            "mcp tools/call guard_check": lambda: on_server("guard_check"),
            "mcp tools/call judgment_recall": lambda: on_server("judgment_recall"),
            "hook, silent (this build)": lambda: hook(binary, "silent"),
            f"hook, silent ({args.base}, before the server)": lambda: hook(base, "silent"),
            "hook, deciding with builtin (this build)": lambda: hook(binary, "builtin"),
            f"hook, deciding with builtin ({args.base})": lambda: hook(base, "builtin"),
            "true": lambda: timed([shutil.which("true")], env, project)[0],
        }
        for _ in range(10):
            for f in runs.values():
                f()
        times = {k: [] for k in runs}
        for _ in range(args.runs):
            order = list(runs)
            random.shuffle(order)
            for k in order:
                times[k].append(runs[k]())
        s.close()
        result = {k: summary(v) for k, v in times.items()}
        ask_p50 = result["decisions ask (a process, builtin)"]["median_ms"]
        pairs = [("mcp start (spawn to initialize answered)", "decisions ask (a process, builtin)"),
                 ("mcp tools/call ask", "decisions ask (a process, builtin)"),
                 ("mcp tools/call guard_check", "decisions hook test --json (a process)"),
                 ("mcp tools/call judgment_recall", "decisions judgment recall (a process)"),
                 ("hook, silent (this build)", f"hook, silent ({args.base}, before the server)"),
                 ("hook, deciding with builtin (this build)", f"hook, deciding with builtin ({args.base})")]
        print(f"{'':44} {'p50 ms':>8} {'p90 ms':>8}")
        for k, v in result.items():
            print(f"{k:44} {v['median_ms']:8.3f} {v['p90_ms']:8.3f}")
        print()
        for a, b in pairs:
            print(f"{a} / {b}: {result[a]['median_ms'] / result[b]['median_ms']:.3f}")
        sizes = {"this build": os.path.getsize(binary), args.base: os.path.getsize(base)}
        print(f"release binary: {sizes['this build']:,} bytes vs {sizes[args.base]:,} ({args.base})")
        print(json.dumps({"runs": args.runs, "results": result, "ask_p50_ms": ask_p50, "sizes": sizes}))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
