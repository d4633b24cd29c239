#!/usr/bin/env python3
"""A loopback fake decision provider speaking System One (POST /v1/systemone), stdlib only.

--mode ok    every score question about a state whose text holds a `rm ` command is answered
             3 of 3 with certainty 0.97; anything else 0 of N (certainty 0.97 too)
--mode hang  accepts connections and reads the request, then never answers

(The `down` mode of the suite is a port where nothing listens: no server at all.)
Each request body is appended to --log as one JSON line.
"""

from __future__ import annotations

import argparse
import json
import re
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

RM = re.compile(r"(^|[\s;&|(`\"'])rm\s")
MODEL = "e2e-jev-1.0"


def answer(q: dict, destructive: bool) -> dict:
    typ = q.get("type")
    crit = q.get("criteria")
    if typ == "score":
        n = len(crit) if isinstance(crit, list) else 4
        top = n - 1 if destructive else 0
        # all the mass on one level, so the score is exactly 3 of 3 (or 0); certainty 0.97 as said
        probs = {str(i): (1.0 if i == top else 0.0) for i in range(n)}
        score = float(top)
        legend = {str(i): (c.get("what") if isinstance(c, dict) else str(c)) for i, c in enumerate(crit or [])}
        conf = 0.97
        return {"type": "score", "score": score, "legend": legend, "probabilities": probs, "confidence": conf}
    if typ == "choice":
        opts = list((crit or {"a": None, "b": None}).keys())
        probs = {o: (0.97 if i == 0 else round(0.03 / max(1, len(opts) - 1), 4)) for i, o in enumerate(opts)}
        return {"type": "choice", "choice": opts[0], "probabilities": probs, "confidence": 0.95}
    return {"type": "noul", "noul": 0.97 if destructive else 0.03}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        with self.server.lock, open(self.server.log, "a", encoding="utf-8") as f:
            f.write(json.dumps({"ts": time.time(), "path": self.path, "body": body}) + "\n")
        if self.server.mode == "hang":
            time.sleep(3600)
            return
        if not self.headers.get("Authorization", "").startswith("Bearer "):
            return self.reply(401, {"detail": "missing key"})
        if not isinstance(body, dict) or not isinstance(body.get("questions"), dict):
            return self.reply(422, {"detail": [{"loc": ["body", "questions"], "msg": "field required",
                                                "type": "missing"}]})
        state = body.get("state")
        text = state if isinstance(state, str) else json.dumps(state)
        destructive = bool(RM.search(text)) or bool(RM.search(text.replace("\\n", "\n")))
        answers = {qid: answer(q or {}, destructive) for qid, q in body["questions"].items()}
        self.reply(200, {"model": MODEL, "answers": answers, "usage": {"input_tokens": 100, "output_tokens": 4}})

    def do_GET(self):
        if self.path.split("?")[0].endswith("/models"):
            return self.reply(200, {"models": [{"name": MODEL, "description": "fake", "release_date": "2026-01-01"}]})
        self.reply(404, {"detail": "not found"})

    def reply(self, status, obj):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("x-typesafe-request-id", "req_fake")
        self.end_headers()
        self.wfile.write(data)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--mode", choices=("ok", "hang"), default="ok")
    ap.add_argument("--log", required=True)
    a = ap.parse_args()
    srv = ThreadingHTTPServer(("127.0.0.1", a.port), Handler)
    srv.daemon_threads = True
    srv.mode, srv.log, srv.lock = a.mode, a.log, threading.Lock()
    srv.serve_forever()


if __name__ == "__main__":
    main()
