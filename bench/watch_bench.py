#!/usr/bin/env python3
"""`decisions watch` over a large event log, beside a baseline that only counts its lines.

Writes a log of N lines (default 1,000,000) in the mix the consumers write: the hook's asks,
answers, failures, retries, denials, skips and timeouts, route's and a batch's asks and
answers, each line as the binary writes it. Then, interleaved for R rounds, times one
snapshot, `decisions watch --once` (text) and `--json`, and the baseline: `wc -l` on the same
file (reading every byte and counting newlines: the least any reader does). Medians. Then the
live view, on a pseudo-terminal over the same log, left idle for 10 s: the CPU time it used
(utime + stime from /proc), after its first frame.

    python3 bench/watch_bench.py [--lines N] [--rounds R] [--idle-s S]

Builds the release binary first. Reads and writes only a temporary directory.
"""
import argparse
import json
import pathlib
import random
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from cli_latency import build  # noqa: E402


def log(path, n):
    rnd = random.Random(7)
    asked = {"provider": "jev", "model": "jev-1.13.0", "source": "config"}
    with open(path, "w") as f:
        i = 0
        while i < n:
            day = 1 + (i * 28) // n
            ts = f"2026-11-{day:02d}T{(i // 997) % 24:02d}:{(i // 13) % 60:02d}:{i % 60:02d}Z"
            consumer, question = rnd.choice([("permission", "destructive"), ("route", "effort"), ("nightly", "ok")])
            lines = [{"event": "decision_asked", **asked, "questions": [question]}]
            r = rnd.random()
            if r < 0.85:
                lines.append({"event": "decision_answered", **asked, "question": question, "confidence": 0.9,
                              "certainty": round(rnd.random(), 3), "threshold_fired": rnd.choice(["act", "escalate", "floor"]),
                              "elapsed_ms": rnd.randint(80, 900)})
            else:
                if r < 0.9:
                    lines.append({"event": "decision_retry", "provider": "jev", "attempt": 1, "delay_ms": 250,
                                  "status": 429, "source": "config"})
                lines.append({"event": "decision_failed", "provider": "jev", "question": question,
                              "reason": rnd.choice(["timeout", "rate_limit", "transport"]), "detail": "x",
                              "elapsed_ms": 2000, "source": "config"})
            if consumer == "permission" and r < 0.05:
                lines.append({"event": "decision_denied", "command": "rm -rf build/", "score": 2.9,
                              "question": "destructive"})
            if consumer == "permission" and 0.95 < r:
                lines.append({"event": "decision_skipped", "reason": "not a shell command (Read)"})
            for line in lines:
                if i >= n:
                    break
                f.write(json.dumps({"ts": ts, "consumer": consumer, **line}, separators=(",", ":")) + "\n")
                i += 1


def timed(cmd, cwd):
    start = time.perf_counter()
    out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    took = time.perf_counter() - start
    if out.returncode != 0:
        sys.exit(f"{cmd[0]} exited {out.returncode}: {out.stderr}")
    return took, out.stdout


def idle_cpu(binary, work, seconds):
    """CPU seconds a live view spends idle for `seconds`, after its first frame is drawn."""
    import os
    import pty
    import select
    master, slave = pty.openpty()
    proc = subprocess.Popen([str(binary), "watch"], cwd=work, stdin=slave, stdout=slave, stderr=slave)
    os.close(slave)
    # The first frame: wait for output to stop arriving.
    deadline = time.time() + 60
    seen = 0
    while time.time() < deadline:
        ready, _, _ = select.select([master], [], [], 1.0)
        if not ready:
            if seen:
                break
            continue
        seen += len(os.read(master, 65536))

    def cpu():
        with open(f"/proc/{proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    before = cpu()
    end = time.time() + seconds
    while time.time() < end:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            os.read(master, 65536)
    used = cpu() - before
    os.write(master, b"q")
    proc.wait(timeout=10)
    os.close(master)
    return used, proc.returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--idle-s", type=float, default=10.0)
    args = ap.parse_args()
    binary = build(packages=("decisions-cli",)) / "decisions"
    work = pathlib.Path(tempfile.mkdtemp())
    leo = work / ".leopold"
    leo.mkdir()
    path = leo / "events.jsonl"
    log(path, args.lines)
    size = path.stat().st_size
    text, js, wc = [], [], []
    for _ in range(args.rounds):
        text.append(timed([str(binary), "watch", "--once"], work)[0])
        took, out = timed([str(binary), "watch", "--json"], work)
        js.append(took)
        wc.append(timed(["wc", "-l", str(path)], work)[0])
    meters = json.loads(out)
    assert meters["lines"] == args.lines, meters["lines"]
    m = {k: statistics.median(v) for k, v in [("text", text), ("json", js), ("wc", wc)]}
    print(f"one snapshot over {args.lines:,} log lines ({size / 2**20:.0f} MiB), median of {args.rounds} rounds:")
    print(f"  decisions watch --once   {m['text'] * 1000:7.0f} ms   ({', '.join(f'{x * 1000:.0f}' for x in text)})")
    print(f"  decisions watch --json   {m['json'] * 1000:7.0f} ms   ({', '.join(f'{x * 1000:.0f}' for x in js)})")
    print(f"  wc -l (counts lines)     {m['wc'] * 1000:7.0f} ms   ({', '.join(f'{x * 1000:.0f}' for x in wc)})")
    print(f"  ratio watch --once / wc -l {m['text'] / m['wc']:.2f}")
    used, code = idle_cpu(binary, work, args.idle_s)
    print(f"idle live view over the same log: {used:.2f} s of CPU in {args.idle_s:.0f} s "
          f"({used / args.idle_s:.2%} of a core); q left it with exit {code}")
    print(json.dumps({"lines": args.lines, "mib": round(size / 2**20), "watch_once_ms": round(m["text"] * 1000),
                      "watch_json_ms": round(m["json"] * 1000), "wc_l_ms": round(m["wc"] * 1000),
                      "idle_cpu_s": used, "idle_s": args.idle_s}))


if __name__ == "__main__":
    main()
