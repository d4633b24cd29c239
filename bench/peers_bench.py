#!/usr/bin/env python3
"""The two local peers, measured: llama-server (xllamacpp, SmolLM2-135M-Instruct) behind the
`local` provider, and sparrow-decider behind keyless `generic`.

For each peer, one question (a noul) about one state:
- `decisions ask`, process spawn to exit, beside `curl` posting the byte-identical request
  body to the same server (captured from decisions itself), interleaved run by run;
- `decisions eval` over labelled states at concurrency 1 and 4: decisions a second, and the
  per-item latency eval reports, beside curl posting the very request bodies eval sends (each
  captured from it) one after another.

    python3 bench/peers_bench.py [--runs N] [--items N]

Needs the virtual environment scripts/test.sh makes (target/venv) and curl. Builds the
release binaries first. Talks only to 127.0.0.1.
"""
import argparse
import http.server
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from cli_latency import build  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
VENV = ROOT / "target" / "venv" / "bin"
STATE = {"change": "drop the orders table and recreate it empty", "files": ["db/migrate/001.sql"]}
CATALOG = {"version": "decisions/1.0",
           "questions": {"risky": {"type": "noul", "instructions": "Could this change lose data?"}},
           "thresholds": {"risky": {"floor": 0.5, "escalate": 0.65, "act": 0.85}}}
CHANGES = [("fix a typo in the README", False), ("drop the orders table", True), ("rename a local variable", False),
           ("delete every backup older than a day", True), ("add a log line", False), ("truncate the users table", True)]


def free_port():
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_ready(url):
    until = time.monotonic() + 60
    while time.monotonic() < until:
        try:
            with urllib.request.urlopen(url + "/health", timeout=2) as r:
                if r.status == 200:
                    return
        except urllib.error.HTTPError as e:
            if e.code != 503:
                return
        except OSError:
            pass
        time.sleep(0.1)
    sys.exit(f"{url} did not come up")


def start_peers():
    sparrow_port, llama_port = free_port(), free_port()
    procs = [subprocess.Popen([VENV / "sparrow-decider", "serve", "--host", "127.0.0.1", "--port", str(sparrow_port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
             subprocess.Popen([VENV / "python", ROOT / "scripts" / "llama_server.py", "--port", str(llama_port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    urls = {"sparrow": f"http://127.0.0.1:{sparrow_port}", "llama": f"http://127.0.0.1:{llama_port}"}
    for url in urls.values():
        wait_ready(url)
    return procs, urls


def project(work, name, provider, descriptor):
    root = work / name
    dec = root / ".leopold" / "decisions"
    dec.mkdir(parents=True)
    (root / ".git").mkdir()
    catalog = dict(CATALOG, thresholds_for=provider)
    (dec / "bench.json").write_text(json.dumps(catalog))
    (dec / "config.json").write_text(json.dumps({"version": "decisions/1.0", "provider": provider,
                                                 "providers": {provider: descriptor}}))
    labelled = root / "labelled.jsonl"
    with open(labelled, "w") as f:
        for i in range(1000):
            change, risky = CHANGES[i % len(CHANGES)]
            f.write(json.dumps({"id": i, "state": {"change": f"{change} ({i})"}, "label": risky}) + "\n")
    return root


def env():
    return {k: v for k, v in os.environ.items() if not k.startswith("LEOPOLD_") and not k.endswith("_API_KEY")}


def capture(binary, root, provider, path, cmd):
    """Run a decisions command once against a loopback catcher: the exact request bodies it
    sends, in order (the catcher answers 500, so nothing is retried)."""
    bodies = []

    class Catch(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            bodies.append(self.rfile.read(int(self.headers["Content-Length"])))
            self.send_response(500)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *a):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Catch)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    config_path = root / ".leopold" / "decisions" / "config.json"
    config = json.loads(config_path.read_text())
    real = config["providers"][provider]["endpoint"]
    config["providers"][provider]["endpoint"] = f"http://127.0.0.1:{server.server_port}{path}"
    config_path.write_text(json.dumps(config))
    subprocess.run(cmd, cwd=root, env=env(), capture_output=True, check=True)
    config["providers"][provider]["endpoint"] = real
    config_path.write_text(json.dumps(config))
    server.shutdown()
    files = []
    for i, b in enumerate(bodies):
        f = root / f"body-{len(list(root.glob('body-*')))}.json"
        f.write_bytes(b)
        files.append(f)
    return files


def ask_cmd(binary):
    return [str(binary), "ask", "--catalog", "bench", "--questions", "risky", "--state", json.dumps(STATE)]


def timed(cmd, cwd):
    start = time.perf_counter()
    out = subprocess.run(cmd, cwd=cwd, env=env(), capture_output=True)
    took = (time.perf_counter() - start) * 1000
    if out.returncode != 0:
        sys.exit(f"{cmd[0]} exited {out.returncode}: {out.stderr.decode()}")
    return took, out.stdout


def eval_cmd(binary, labelled, concurrency):
    return [str(binary), "eval", "--catalog", "bench", "--question", "risky", "--input", str(labelled),
            "--concurrency", str(concurrency), "--json"]


def measure(binary, root, provider, path, endpoint, runs, items):
    curl = lambda body: [shutil.which("curl"), "-sS", "-X", "POST", endpoint, "-H", "Content-Type: application/json",
                         "--data-binary", f"@{body}"]
    ask = ask_cmd(binary)
    [body] = capture(binary, root, provider, path, ask)
    _, out = timed(ask, root)
    answer = json.loads(out)["answers"]["risky"]
    assert answer["ok"], answer
    json.loads(timed(curl(body), root)[1])
    asks, curls = [], []
    for _ in range(runs):
        asks.append(timed(ask, root)[0])
        curls.append(timed(curl(body), root)[0])
    result = {"ask_median_ms": round(statistics.median(asks), 1), "curl_median_ms": round(statistics.median(curls), 1)}
    result["ratio"] = round(result["ask_median_ms"] / result["curl_median_ms"], 3)
    labelled = root / f"labelled-{items}.jsonl"
    labelled.write_text("".join((root / "labelled.jsonl").read_text().splitlines(True)[:items]))
    bodies = capture(binary, root, provider, path, eval_cmd(binary, labelled, 1))
    assert len(bodies) == items, len(bodies)
    start = time.perf_counter()
    for b in bodies:
        json.loads(timed(curl(b), root)[1])
    result["curl_sequential_per_s"] = round(items / (time.perf_counter() - start), 2)
    for c in (1, 4):
        start = time.perf_counter()
        _, out = timed(eval_cmd(binary, labelled, c), root)
        wall = time.perf_counter() - start
        e = json.loads(out)
        assert e["answered"] == items, e
        result[f"eval_c{c}"] = {"items_per_s": round(items / wall, 2), "latency_median_ms": round(e["latency_ms"]["median"], 1),
                                "latency_p90_ms": round(e["latency_ms"]["p90"], 1), "accuracy": round(e["accuracy"], 3)}
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--items", type=int, default=60)
    args = ap.parse_args()
    if shutil.which("curl") is None or not (VENV / "sparrow-decider").exists():
        sys.exit("needs curl and target/venv (run scripts/test.sh once)")
    binary = build() / "decisions"
    work = pathlib.Path(tempfile.mkdtemp())
    procs, urls = start_peers()
    try:
        results = {}
        sparrow_endpoint = urls["sparrow"] + "/v1/systemone"
        generic = {"name": "generic", "endpoint": sparrow_endpoint, "model": "sparrow-nano-general-v1.1",
                   "calibrated": False, "auth_env": None, "timeout_ms": 20000, "max_options": 64, "max_state_tokens": 32000}
        root = project(work, "sparrow", "generic", generic)
        results["sparrow-decider (generic, System One)"] = measure(
            binary, root, "generic", "/v1/systemone", sparrow_endpoint, args.runs, args.items)
        llama_endpoint = urls["llama"] + "/v1/chat/completions"
        local = {"name": "local", "endpoint": llama_endpoint, "model": "local", "calibrated": False, "auth_env": None,
                 "timeout_ms": 20000, "max_options": 64, "max_state_tokens": 32000}
        root = project(work, "llama", "local", local)
        results["llama-server SmolLM2-135M (local, chat)"] = measure(
            binary, root, "local", "/v1/chat/completions", llama_endpoint, args.runs, args.items)
    finally:
        for p in procs:
            p.terminate()
            p.wait()
    for name, r in results.items():
        print(f"{name}:")
        print(f"  decisions ask  median {r['ask_median_ms']} ms   curl of the same body {r['curl_median_ms']} ms   ratio {r['ratio']}")
        for c in (1, 4):
            e = r[f"eval_c{c}"]
            print(f"  decisions eval --concurrency {c}: {e['items_per_s']} decisions/s, latency median {e['latency_median_ms']} ms,"
                  f" p90 {e['latency_p90_ms']} ms (curl, the same bodies one after another: {r['curl_sequential_per_s']}/s)")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
