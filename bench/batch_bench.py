#!/usr/bin/env python3
"""Batch throughput, pacing and memory: `decisions batch` against the loopback stub server.

1. Throughput at concurrency 16 against a stub with a fixed 20 ms service time, as a share of
   the ideal 16 / 0.020 s = 800 items/s, beside a same-run baseline: a Python client with a
   thread pool of 16 and one kept-alive connection a thread, posting the same request bodies.
   Rounds alternate the two; medians are reported.
2. Against a stub that enforces 1,200 requests a minute (a token bucket holding one second's
   worth, 429 with Retry-After: 1 beyond it), 600 items with `--rate 1200/min`: wall time as a
   share of the ideal 30 s, the 429s the server sent, items lost. Then the same items without
   `--rate`, to show what the limit does to a client that does not pace itself.
3. Peak resident memory of `decisions batch` for 10,000 and 100,000 input lines against an
   instant stub: the process's VmHWM, read from /proc while it runs (its high-water mark only
   rises; wait4's ru_maxrss would count the Python parent's pages the child had before exec).
4. Peak resident memory of `decisions triage` over 100,000 issues (a title and a 600-byte body
   each) against an instant stub answering the shipped catalog's three questions, with the
   Markdown and JSON reports written: the report is read back from the output in one pass.
5. The event log's cost: 100,000 items against an instant stub, the same run with its event
   log (the default) and with `--no-log`, rounds alternating; medians and the ratio.

    python3 bench/batch_bench.py [--items N] [--rounds N] [--skip-rate] [--skip-memory]
                                 [--sizes 10000,100000] [--triage-issues N] [--skip-triage]
                                 [--log-items N] [--skip-log]

Builds the release binaries first. Talks only to 127.0.0.1.
"""
import argparse
import concurrent.futures
import http.client
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from cli_latency import build  # noqa: E402

CATALOG = {"version": "decisions/1.0",
           "questions": {"ok": {"type": "noul", "instructions": "Is this log line a sign of trouble?"}},
           "thresholds": {"ok": {"floor": 0.5, "escalate": 0.65, "act": 0.85}}}
ANSWER = {"model": "jev-1.13.0", "answers": {"ok": {"type": "noul", "noul": 0.93}}}
KEY = "bench-key"


def item(i):
    return {"id": i, "line": f"2026-11-30T06:00:{i % 60:02d}Z worker-{i % 7} request {i} took {i % 997} ms",
            "host": f"web-{i % 12}"}


def write_items(path, n):
    with open(path, "w") as f:
        for i in range(1, n + 1):
            f.write(json.dumps(item(i)) + "\n")


class Stub:
    """A stub-server process: its base URL, its /stats."""

    def __init__(self, binary, work, *flags):
        body = work / "answer.json"
        body.write_text(json.dumps(ANSWER))
        self.proc = subprocess.Popen([binary, body, "--keep-alive", *flags], stdout=subprocess.PIPE, text=True)
        self.url = self.proc.stdout.readline().strip()

    def stats(self):
        with urllib.request.urlopen(self.url + "/stats") as r:
            return json.loads(r.read())

    def close(self):
        self.proc.kill()
        self.proc.wait()


def project(work, endpoint):
    root = work / f"project-{time.monotonic_ns()}"
    dec = root / ".leopold" / "decisions"
    dec.mkdir(parents=True)
    (root / ".git").mkdir()
    (dec / "ok.json").write_text(json.dumps(CATALOG))
    jev = {"name": "jev", "endpoint": endpoint + "/v1/systemone", "model": "jev-1.13.0", "calibrated": True,
           "calibration_source": "trained", "auth_env": "TYPESAFE_API_KEY", "timeout_ms": 5000,
           "max_options": 255, "max_state_tokens": 32000}
    (dec / "config.json").write_text(json.dumps({"version": "decisions/1.0", "provider": "jev",
                                                 "providers": {"jev": jev}}))
    return root


def env():
    e = {k: v for k, v in os.environ.items() if not k.startswith("LEOPOLD_")}
    e["TYPESAFE_API_KEY"] = KEY
    return e


def batch(binary, root, items, *flags):
    """Run `decisions batch`; (seconds, peak RSS in KiB, summary line, output lines)."""
    out = root / "out.jsonl"
    if out.exists():
        out.unlink()
    cmd = [str(binary), "batch", "--catalog", "ok", "--questions", "ok", "--input", str(items),
           "--output", str(out), *flags]
    took, hwm, stderr, cpu = watched(cmd, root)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    batch.cpu_s = cpu
    return took, hwm, stderr.strip().splitlines()[-1], lines


def watched(cmd, root):
    """Run a command to its end in `root`, watching its memory; (seconds, peak RSS in KiB,
    stderr, CPU seconds it used, user and system). A failure ends the benchmark."""
    start = time.perf_counter()
    err = root / "stderr.txt"
    with open(err, "w") as stderr_file:
        proc = subprocess.Popen(cmd, cwd=root, env=env(), stdout=subprocess.DEVNULL, stderr=stderr_file)
        hwm = 0
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            hwm = max(hwm, vm_hwm(proc.pid))
            time.sleep(0.005)
    took = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    stderr = err.read_text()
    if proc.returncode != 0:
        sys.exit(f"{' '.join(map(str, cmd[:2]))} exited {proc.returncode}: {stderr}")
    return took, hwm, stderr, usage.ru_utime + usage.ru_stime


def vm_hwm(pid):
    """A live process's peak resident set so far, in KiB (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def python_baseline(url, n, concurrency):
    """The same requests from a thread pool, one kept-alive http.client connection a thread."""
    parsed = urllib.parse.urlparse(url)
    local = threading.local()
    question = {"type": "noul", "instructions": CATALOG["questions"]["ok"]["instructions"]}
    headers = {"Authorization": f"Bearer {KEY}", "Content-Type": "application/json", "Accept": "application/json"}

    def one(i):
        if not hasattr(local, "conn"):
            local.conn = http.client.HTTPConnection(parsed.hostname, parsed.port)
        body = json.dumps({"model": "jev-1.13.0", "state": item(i), "questions": {"ok": question}})
        local.conn.request("POST", "/v1/systemone", body, headers)
        resp = local.conn.getresponse()
        answer = json.loads(resp.read())
        assert resp.status == 200 and answer["answers"]["ok"]["noul"] == 0.93
        return True

    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(concurrency) as pool:
        done = sum(pool.map(one, range(1, n + 1)))
    assert done == n
    return time.perf_counter() - start


def throughput(binary, stub_bin, work, n, rounds):
    stub = Stub(stub_bin, work, "--delay-ms", "20")
    try:
        root = project(work, stub.url)
        items = work / "throughput.jsonl"
        write_items(items, n)
        ideal = 16 / 0.020
        ours, theirs = [], []
        batch(binary, root, items, "--concurrency", "16")  # warm-up
        for _ in range(rounds):
            took, _, line, lines = batch(binary, root, items, "--concurrency", "16")
            assert len(lines) == n and all(l["usable"] for l in lines), line
            ours.append(n / took)
            theirs.append(n / python_baseline(stub.url, n, 16))
        ours_m, theirs_m = statistics.median(ours), statistics.median(theirs)
        print(f"throughput, {n} items at concurrency 16 against a 20 ms stub (ideal {ideal:.0f}/s), "
              f"median of {rounds} rounds:")
        print(f"  decisions batch        {ours_m:7.1f} items/s  = {ours_m / ideal:.3f} of ideal   "
              f"(rounds: {', '.join(f'{x:.0f}' for x in ours)})")
        print(f"  python thread pool     {theirs_m:7.1f} items/s  = {theirs_m / ideal:.3f} of ideal   "
              f"(rounds: {', '.join(f'{x:.0f}' for x in theirs)})")
        print(f"  ratio decisions/python {ours_m / theirs_m:.3f}")
        return {"decisions_items_per_s": round(ours_m, 1), "python_items_per_s": round(theirs_m, 1),
                "share_of_ideal": round(ours_m / ideal, 3), "python_share_of_ideal": round(theirs_m / ideal, 3)}
    finally:
        stub.close()


def rate_limited(binary, stub_bin, work):
    n = 600
    items = work / "rate.jsonl"
    write_items(items, n)
    result = {}
    for label, flags in [("--rate 1200/min", ["--rate", "1200/min"]), ("no --rate", [])]:
        stub = Stub(stub_bin, work, "--delay-ms", "20", "--limit", "1200/min")
        try:
            root = project(work, stub.url)
            took, _, line, lines = batch(binary, root, items, "--concurrency", "16", *flags)
            stats = stub.stats()
            ids = [l["id"] for l in lines]
            answered = sum(1 for l in lines if l["answers"]["ok"].get("ok"))
            lost = n - len(set(ids))
            share_429 = stats["limited"] / max(1, stats["limited"] + stats["requests"])
            print(f"rate-limited stub (1200/min), {n} items at concurrency 16, {label}:")
            print(f"  wall {took:.2f} s = {took / 30:.3f} of the ideal 30 s; answered {answered}; "
                  f"429s sent {stats['limited']} ({share_429:.2%} of requests); lost {lost}; "
                  f"ids written twice {len(ids) - len(set(ids))}")
            print(f"  summary: {line}")
            result[label] = {"wall_s": round(took, 2), "share_of_ideal": round(took / 30, 3), "answered": answered,
                             "429s": stats["limited"], "share_429": round(share_429, 4), "lost": lost}
        finally:
            stub.close()
    return result


def memory(binary, stub_bin, work, sizes, flags=(), label=""):
    stub = Stub(stub_bin, work)
    result = {}
    try:
        root = project(work, stub.url)
        for n in sizes:
            items = work / f"memory-{n}.jsonl"
            if not items.exists():
                write_items(items, n)
            took, rss_kib, line, lines = batch(binary, root, items, "--concurrency", "16", *flags)
            assert len(lines) == n, line
            print(f"peak RSS for {n} input lines against an instant stub{label}: {rss_kib / 1024:.1f} MiB "
                  f"({took:.1f} s, {n / took:.0f} items/s)")
            result[n] = round(rss_kib / 1024, 1)
    finally:
        stub.close()
    return result


TRIAGE_ANSWER = {"model": "jev-1.13.0", "answers": {
    "kind": {"type": "choice", "choice": "bug", "confidence": 0.9,
             "probabilities": {"bug": 0.92, "feature": 0.02, "question": 0.02, "docs": 0.02, "noise": 0.02}},
    "severity": {"type": "score", "score": 2.2, "confidence": 0.9,
                 "probabilities": {"0": 0.0, "1": 0.0, "2": 0.8, "3": 0.2}},
    "needs_repro": {"type": "noul", "noul": 0.05}}}


def triage_memory(binary, stub_bin, work, n):
    body = work / "triage-answer.json"
    body.write_text(json.dumps(TRIAGE_ANSWER))
    proc = subprocess.Popen([stub_bin, body, "--keep-alive"], stdout=subprocess.PIPE, text=True)
    url = proc.stdout.readline().strip()
    try:
        root = project(work, url)
        issues = root / "issues.jsonl"
        with open(issues, "w") as f:
            for i in range(1, n + 1):
                text = f"Steps: run `decisions ask` with catalog {i % 31}; observed exit {i % 5}. " * 8
                f.write(json.dumps({"number": i, "title": f"Issue {i}: something about part {i % 97}",
                                    "body": text[:600]}) + "\n")
        cmd = [str(binary), "triage", str(issues), "--no-record", "--concurrency", "16", "--output",
               str(root / "out.jsonl"), "--report", str(root / "report.md"), "--json", str(root / "report.json")]
        took, hwm, _, _ = watched(cmd, root)
        report = json.loads((root / "report.json").read_text())
        placed = sum(len(v) for v in report["buckets"].values()) + len(report["human_review"]) + len(report["noise"])
        assert placed == n, (placed, n)
        size = issues.stat().st_size
        print(f"peak RSS for triage of {n} issues ({size / 2**20:.1f} MiB of input) against an instant stub, "
              f"both reports written: {hwm / 1024:.1f} MiB ({took:.1f} s)")
        return round(hwm / 1024, 1)
    finally:
        proc.kill()
        proc.wait()


def log_cost(binary, stub_bin, work, n, rounds, delay_ms=0):
    stub = Stub(stub_bin, work, *(["--delay-ms", str(delay_ms)] if delay_ms else []))
    try:
        root = project(work, stub.url)
        items = work / f"log-{n}.jsonl"
        write_items(items, n)
        logged, unlogged, rss, cpu = [], [], {"log": [], "no-log": []}, {"log": [], "no-log": []}
        for _ in range(rounds):
            for flags, into, key in ((["--no-log"], unlogged, "no-log"), ([], logged, "log")):
                log = root / ".leopold" / "events.jsonl"
                if log.exists():
                    log.unlink()
                took, hwm, line, lines = batch(binary, root, items, "--concurrency", "16", *flags)
                assert len(lines) == n, line
                into.append(n / took)
                rss[key].append(hwm / 1024)
                cpu[key].append(batch.cpu_s)
            assert sum(1 for _ in open(log)) >= 2 * n, "every item's asked and answered lines"
        a, b = statistics.median(logged), statistics.median(unlogged)
        against = f"a stub with a {delay_ms} ms service time" if delay_ms else "an instant stub"
        print(f"the event log's cost, {n} items at concurrency 16 against {against}, median of {rounds} rounds:")
        print(f"  with its log   {a:8.0f} items/s   ({', '.join(f'{x:.0f}' for x in logged)})")
        print(f"  --no-log       {b:8.0f} items/s   ({', '.join(f'{x:.0f}' for x in unlogged)})")
        print(f"  ratio with/without {a / b:.3f}")
        ra, rb = statistics.median(rss["log"]), statistics.median(rss["no-log"])
        ca, cb = statistics.median(cpu["log"]), statistics.median(cpu["no-log"])
        print(f"  CPU of the decisions process (user + system): with its log {ca:.2f} s, --no-log {cb:.2f} s, "
              f"ratio {ca / cb:.3f}")
        print(f"  peak RSS with its log {ra:.1f} MiB, --no-log {rb:.1f} MiB")
        return {"logged_items_per_s": round(a), "unlogged_items_per_s": round(b), "ratio": round(a / b, 3),
                "logged_cpu_s": round(ca, 2), "unlogged_cpu_s": round(cb, 2),
                "logged_peak_rss_mib": round(ra, 1), "unlogged_peak_rss_mib": round(rb, 1)}
    finally:
        stub.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--items", type=int, default=4000, help="items per throughput round")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--skip-rate", action="store_true")
    ap.add_argument("--skip-memory", action="store_true")
    ap.add_argument("--sizes", default="10000,100000", help="input lines for the memory runs, comma-separated")
    ap.add_argument("--triage-issues", type=int, default=100000, help="issues for the triage memory run")
    ap.add_argument("--skip-triage", action="store_true")
    ap.add_argument("--log-items", type=int, default=100000)
    ap.add_argument("--skip-log", action="store_true")
    ap.add_argument("--baseline-rev", help="also measure memory with this git revision's build, in the same command")
    args = ap.parse_args()
    bins = build()
    binary, stub_bin = bins / "decisions", bins / "stub-server"
    work = pathlib.Path(tempfile.mkdtemp())
    if args.baseline_rev:
        from pacing_bench import baseline  # noqa: E402
        sizes = [int(n) for n in args.sizes.split(",")]
        old = baseline(args.baseline_rev, work)
        out = {"baseline": memory(old, stub_bin, work, sizes, label=f" ({args.baseline_rev})"),
               "no_log": memory(binary, stub_bin, work, sizes, ["--no-log"], " (this build, --no-log)"),
               "log": memory(binary, stub_bin, work, sizes, label=" (this build, with its log)")}
        print(json.dumps(out))
        return
    out = {"throughput": throughput(binary, stub_bin, work, args.items, args.rounds)}
    if not args.skip_rate:
        out["rate_limited"] = rate_limited(binary, stub_bin, work)
    if not args.skip_memory:
        out["peak_rss_mib"] = memory(binary, stub_bin, work, [int(n) for n in args.sizes.split(",")])
    if not args.skip_triage:
        out["triage_peak_rss_mib"] = triage_memory(binary, stub_bin, work, args.triage_issues)
    if not args.skip_log:
        # Against an instant stub the run is bound by this machine's CPU, which the stub shares:
        # the log's own work shows in full. Against a server that takes a millisecond, as a
        # fast local one does, what a user of a real provider would see.
        out["log_cost"] = log_cost(binary, stub_bin, work, args.log_items, 3)
        out["log_cost_1ms"] = log_cost(binary, stub_bin, work, args.log_items, 3, delay_ms=1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
