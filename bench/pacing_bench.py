#!/usr/bin/env python3
"""Pacing against real limiters: `decisions batch` against `stub-server` enforcing 20 requests
a second three ways, a strict sliding one-second window, a token bucket with a burst of 40,
and a fixed one-second window, each answering 429 with `Retry-After: 1` beyond the limit.

For each limiter, 300 items at `--concurrency 8` (20 ms service time) with `--rate 20/s` (the
limit), `--rate 19/s` (95% of it) and no `--rate`: wall time as a share of the ideal (items /
20 per second = 15 s), the 429s the server sent as a share of all requests, items lost (an
id without an answered line), and the rate the run said it ended at. Then the same items
against the stub with no limit, no `--rate` (the unlimited case). Goals (issue 20): with
`--rate` at most 1.10x and 2% 429s; without, at most 1.20x and 5%; 0 lost everywhere.

    python3 bench/pacing_bench.py [--items N] [--rounds N] [--baseline-rev REV]

`--baseline-rev` builds that revision in a git worktree (its own target directory) and runs
the same table with it first, so the two are measured in the same command. Builds the release
binaries first. Talks only to 127.0.0.1.
"""
import argparse
import json
import pathlib
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from batch_bench import Stub, env, project, write_items  # noqa: E402
from cli_latency import ROOT, build  # noqa: E402

LIMIT = 20
CONCURRENCY = 8
LIMITERS = [("sliding window", ["--limiter", "sliding"]), ("token bucket, burst 40", ["--limiter", "bucket", "--burst", "40"]),
            ("fixed window", ["--limiter", "fixed"])]
MODES = [("--rate 20/s", ["--rate", "20/s"]), ("--rate 19/s", ["--rate", "19/s"]), ("no --rate", [])]


def one(binary, stub_bin, work, items, n, limiter_flags, mode_flags):
    limit = ["--limit", f"{LIMIT}/s", *limiter_flags] if limiter_flags is not None else []
    server = Stub(stub_bin, work, "--delay-ms", "20", *limit)
    try:
        root = project(work, server.url)
        out = root / "out.jsonl"
        cmd = [str(binary), "batch", "--catalog", "ok", "--questions", "ok", "--input", str(items), "--output", str(out),
               "--concurrency", str(CONCURRENCY), *mode_flags]
        start = time.perf_counter()
        proc = subprocess.run(cmd, cwd=root, env=env(), capture_output=True, text=True)
        took = time.perf_counter() - start
        stats = server.stats()
    finally:
        server.close()
    lines = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    answered = {l["id"] for l in lines if l["answers"]["ok"].get("ok")}
    summary = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""
    paced = re.search(r"paced at ([0-9.]+)/s", summary)
    total = stats["requests"] + stats["limited"]
    return {"wall_s": round(took, 2), "share_of_ideal": round(took / (n / LIMIT), 3), "429s": stats["limited"],
            "share_429": round(stats["limited"] / max(1, total), 4), "lost": n - len(answered), "exit": proc.returncode,
            "paced_at": float(paced.group(1)) if paced else None}


def table(label, binary, stub_bin, work, n, rounds):
    items = work / "items.jsonl"
    write_items(items, n)
    print(f"{label}: {n} items at --concurrency {CONCURRENCY} against a {LIMIT}/s limit (ideal {n / LIMIT:.0f} s), "
          f"median of {rounds} round(s):")
    print(f"  {'limiter':<24} {'run':<12} {'time':>7} {'x ideal':>8} {'429s':>6} {'of requests':>11} {'lost':>5} {'ended at':>9}")
    result = {}
    for lname, lflags in LIMITERS:
        for mname, mflags in MODES:
            runs = [one(binary, stub_bin, work, items, n, lflags, mflags) for _ in range(rounds)]
            r = sorted(runs, key=lambda x: x["wall_s"])[len(runs) // 2]
            r["rounds_wall_s"] = [x["wall_s"] for x in runs]
            paced = f"{r['paced_at']:.1f}/s" if r["paced_at"] else "-"
            goal_x, goal_429 = (1.10, 0.02) if mflags else (1.20, 0.05)
            ok = r["share_of_ideal"] <= goal_x and r["share_429"] <= goal_429 and r["lost"] == 0
            print(f"  {lname:<24} {mname:<12} {r['wall_s']:6.2f}s {r['share_of_ideal']:7.3f}x {r['429s']:6d} "
                  f"{r['share_429']:10.2%} {r['lost']:5d} {paced:>9}  {'meets' if ok else 'misses'} "
                  f"{goal_x:.2f}x / {goal_429:.0%}")
            result[f"{lname} | {mname}"] = r
    runs = [one(binary, stub_bin, work, items, n, None, []) for _ in range(rounds)]
    r = sorted(runs, key=lambda x: x["wall_s"])[len(runs) // 2]
    print(f"  {'no limit':<24} {'no --rate':<12} {r['wall_s']:6.2f}s {'':>8} {r['429s']:6d} {'':>11} {r['lost']:5d}")
    result["no limit | no --rate"] = r
    return result


def baseline(rev, work):
    tree = work / "baseline"
    subprocess.run(["git", "worktree", "add", "--detach", str(tree), rev], cwd=ROOT, check=True, capture_output=True)
    try:
        out = subprocess.run(["cargo", "build", "--release", "-q", "-p", "decisions-cli", "--message-format=json",
                              "--target-dir", str(work / "baseline-target")], cwd=tree, check=True,
                             capture_output=True, text=True).stdout
        exes = [m["executable"] for m in map(json.loads, out.splitlines())
                if m.get("reason") == "compiler-artifact" and m.get("executable")]
        binary = work / "decisions-baseline"
        binary.write_bytes(pathlib.Path(exes[0]).read_bytes())
        binary.chmod(0o755)
        return binary
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, capture_output=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--items", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--baseline-rev", help="a git revision to measure first, in the same command")
    args = ap.parse_args()
    bins = build()
    binary, stub_bin = bins / "decisions", bins / "stub-server"
    work = pathlib.Path(tempfile.mkdtemp())
    out = {}
    if args.baseline_rev:
        old = baseline(args.baseline_rev, work)
        out["baseline"] = table(f"baseline {args.baseline_rev}", old, stub_bin, work, args.items, args.rounds)
    out["this build"] = table("this build", binary, stub_bin, work, args.items, args.rounds)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
