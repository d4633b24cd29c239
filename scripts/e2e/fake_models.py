#!/usr/bin/env python3
"""Loopback fake model servers for the agents e2e suite (Python 3.11 stdlib only).

One server per API, chosen by --api:

  anthropic  Anthropic Messages (POST /v1/messages, SSE or JSON; count_tokens)   Claude Code
  responses  OpenAI Responses (POST /v1/responses, SSE; GET /v1/models)          Codex
  gemini     Gemini (:streamGenerateContent?alt=sse, :generateContent,
             :countTokens)                                                       Gemini CLI

The main turn is the request that carries the agent's shell tool: the first time, the model asks
for one call of that tool running --command (env FAKE_COMMAND); once the request carries the
tool's result, it ends the turn with a short text. Every other request (titles, summaries, quota
checks, classifiers) gets a short plain text turn, or JSON that fits the asked schema.

With FAKE_MCP_TOOL set (a tool of our MCP server, e.g. judgment_recall), the main turn is the
request that carries that tool as the agent names it (Claude Code `mcp__decisions__<tool>`,
Codex the function `<tool>` in the namespace `mcp__decisions`, Gemini CLI
`mcp_decisions_<tool>`): the model calls it once with the arguments in FAKE_MCP_ARGS (JSON), then
ends the turn.

Every request is appended to --log as one JSON line {"api", "method", "path", "body"}, so a test
can read back what the model was told.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SHELL_TOOLS = ("Bash", "bash", "exec_command", "shell_command", "shell", "local_shell", "run_shell_command")
MCP_TOOL = os.environ.get("FAKE_MCP_TOOL", "")
MCP_ARGS = json.loads(os.environ.get("FAKE_MCP_ARGS") or "{}")
DONE_TEXT = "Done."


def fill_args(schema: dict | None, command: str) -> dict:
    """Arguments for a shell tool call, from the tool's JSON schema: the command where it goes."""
    props = (schema or {}).get("properties") or {}
    required = (schema or {}).get("required") or []
    args: dict = {}
    for name in props:
        spec = props[name] or {}
        typ = spec.get("type")
        if isinstance(typ, str):
            typ = typ.lower()
        if name in ("command", "cmd"):
            if typ == "array":
                args[name] = ["bash", "-lc", command]
            else:
                args[name] = command
        elif name == "description" or name in required:
            args[name] = sample(spec, name)
    if not args:
        args["command"] = command
    return args


def sample(spec: dict, name: str = ""):
    """A small value that fits a JSON schema (object, enum, string, number, array, boolean)."""
    if not isinstance(spec, dict):
        return "ok"
    if spec.get("enum"):
        return spec["enum"][0]
    typ = spec.get("type")
    if isinstance(typ, list):
        typ = next((t for t in typ if t != "null"), "string")
    typ = (typ or "").lower()
    if typ == "object" or "properties" in spec:
        props = spec.get("properties") or {}
        req = spec.get("required") or list(props)
        return {k: sample(props.get(k) or {}, k) for k in req}
    if typ == "array":
        return []
    if typ in ("integer", "number"):
        return spec.get("minimum", 1)
    if typ == "boolean":
        return False
    if name == "description":
        return "Run the requested command"
    return "ok"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fake-models/1"

    def log_message(self, fmt, *args):  # quiet
        pass

    # -- plumbing -------------------------------------------------------------------------------
    def read_body(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        if self.headers.get("Content-Encoding", "") in ("gzip",):
            import gzip

            raw = gzip.decompress(raw)
        elif self.headers.get("Content-Encoding", "") in ("zstd",):
            return {"_undecoded": "zstd", "_len": len(raw)}
        try:
            return json.loads(raw) if raw else None
        except ValueError:
            return {"_raw": raw.decode("utf-8", "replace")}

    def record(self, body):
        cfg = self.server.cfg
        line = {"ts": time.time(), "api": cfg.api, "method": self.command, "path": self.path, "body": body}
        with cfg.lock, open(cfg.log, "a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")

    def send_json(self, obj, status=200):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def send_sse(self, events):
        """events: list of (event name or None, data dict)."""
        chunks = []
        for name, data in events:
            s = ""
            if name:
                s += f"event: {name}\n"
            s += f"data: {json.dumps(data)}\n\n"
            chunks.append(s.encode())
        payload = b"".join(chunks)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def do_GET(self):
        self.record(None)
        path = self.path.split("?")[0]
        if path.endswith("/models"):
            self.send_json({"object": "list", "data": [], "models": []})
        else:
            self.send_json({})

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        body = self.read_body()
        self.record(body)
        api = self.server.cfg.api
        try:
            if api == "anthropic":
                self.anthropic(body or {})
            elif api == "responses":
                self.openai_responses(body or {})
            else:
                self.gemini(body or {})
        except (BrokenPipeError, ConnectionResetError):
            pass

    # -- Anthropic Messages ---------------------------------------------------------------------
    def anthropic(self, body):
        path = self.path.split("?")[0]
        if path.endswith("/count_tokens"):
            return self.send_json({"input_tokens": 100})
        if not path.endswith("/messages"):
            return self.send_json({})
        model = body.get("model", "claude-fake")
        tools = {t.get("name"): t for t in body.get("tools") or [] if isinstance(t, dict)}
        msgs = body.get("messages") or []
        last = msgs[-1] if msgs else {}
        content = last.get("content") if isinstance(last, dict) else None
        had_result = isinstance(content, list) and any(
            isinstance(b, dict) and b.get("type") == "tool_result" for b in content
        )
        block = None
        shell = next((n for n in ("Bash", "bash") if n in tools), None)  # Claude Code, Copilot CLI
        mcp = next((n for n in tools if MCP_TOOL and n.endswith("__" + MCP_TOOL)), None)
        if MCP_TOOL:
            shell = None
        if mcp and not had_result and not self.server.cfg.turn_done():
            block = {"type": "tool_use", "id": "toolu_fake01", "name": mcp, "input": MCP_ARGS}
            self.server.cfg.mark_called()
        if shell and not had_result and not self.server.cfg.turn_done():
            args = fill_args(tools[shell].get("input_schema"), self.server.cfg.command)
            if "mode" in args and "mode" in ((tools[shell].get("input_schema") or {}).get("properties") or {}):
                args["mode"] = "sync"
            block = {"type": "tool_use", "id": "toolu_fake01", "name": shell, "input": args}
            self.server.cfg.mark_called()
        if had_result:
            self.server.cfg.mark_done()
        usage = {"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
        stop = "tool_use" if block else "end_turn"
        text = DONE_TEXT
        if not body.get("stream"):
            out = [block] if block else [{"type": "text", "text": text}]
            return self.send_json(
                {"id": "msg_fake", "type": "message", "role": "assistant", "model": model, "content": out,
                 "stop_reason": stop, "stop_sequence": None, "usage": usage}
            )
        ev = [("message_start", {"type": "message_start", "message": {
            "id": "msg_fake", "type": "message", "role": "assistant", "model": model, "content": [],
            "stop_reason": None, "stop_sequence": None, "usage": usage}})]
        if block:
            ev.append(("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {
                "type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}}))
            ev.append(("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {
                "type": "input_json_delta", "partial_json": json.dumps(block["input"])}}))
        else:
            ev.append(("content_block_start", {"type": "content_block_start", "index": 0,
                                               "content_block": {"type": "text", "text": ""}}))
            ev.append(("content_block_delta", {"type": "content_block_delta", "index": 0,
                                               "delta": {"type": "text_delta", "text": text}}))
        ev.append(("content_block_stop", {"type": "content_block_stop", "index": 0}))
        ev.append(("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                     "usage": {"output_tokens": 5}}))
        ev.append(("message_stop", {"type": "message_stop"}))
        self.send_sse(ev)

    # -- OpenAI Responses -----------------------------------------------------------------------
    def openai_responses(self, body):
        path = self.path.split("?")[0]
        if not path.endswith("/responses"):
            return self.send_json({})
        tools = body.get("tools") or []
        items = body.get("input") or []
        if isinstance(items, str):
            items = []
        had_result = any(
            isinstance(i, dict) and i.get("type") in ("function_call_output", "custom_tool_call_output",
                                                     "local_shell_call_output")
            for i in items
        )
        # Only the items after the last user message count as this turn's
        last_user = max((n for n, i in enumerate(items) if isinstance(i, dict) and i.get("role") == "user"),
                        default=-1)
        had_result = any(
            isinstance(i, dict) and i.get("type", "").endswith("_output") for i in items[last_user + 1:]
        )
        shell = None
        for t in tools:
            if not isinstance(t, dict):
                continue
            name = t.get("name") or (t.get("function") or {}).get("name")
            if t.get("type") == "local_shell":
                name = "local_shell"
            if name in SHELL_TOOLS:
                shell = (name, t)
                break
        item = None
        cfg = self.server.cfg
        if MCP_TOOL:
            shell = None
            for t in tools:
                inner = [f for f in (t.get("tools") or []) if isinstance(f, dict)] if isinstance(t, dict) else []
                if isinstance(t, dict) and t.get("type") == "namespace" and any(f.get("name") == MCP_TOOL for f in inner):
                    if not had_result and not cfg.turn_done():
                        item = {"type": "function_call", "id": "fc_fake01", "call_id": "call_fake01", "name": MCP_TOOL,
                                "namespace": t.get("name"), "arguments": json.dumps(MCP_ARGS)}
                        cfg.mark_called()
                    break
        if shell and not had_result and not cfg.turn_done():
            name, t = shell
            if name == "local_shell":
                item = {"type": "local_shell_call", "id": "lsh_fake01", "call_id": "call_fake01", "status": "completed",
                        "action": {"type": "exec", "command": ["bash", "-lc", cfg.command], "env": {}}}
            else:
                params = t.get("parameters") or (t.get("function") or {}).get("parameters")
                item = {"type": "function_call", "id": "fc_fake01", "call_id": "call_fake01", "name": name,
                        "arguments": json.dumps(fill_args(params, cfg.command))}
            cfg.mark_called()
        if had_result:
            cfg.mark_done()
        if item is None:
            item = {"type": "message", "role": "assistant", "id": "msg_fake01", "status": "completed",
                    "content": [{"type": "output_text", "text": DONE_TEXT, "annotations": []}]}
        rid = "resp_fake%d" % int(time.time() * 1000)
        resp = {"id": rid, "object": "response", "status": "in_progress", "model": body.get("model", "fake"),
                "output": []}
        usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
                 "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}
        done = dict(resp, status="completed", output=[item], usage=usage)
        ev = [("response.created", {"type": "response.created", "response": resp})]
        ev.append(("response.output_item.added", {"type": "response.output_item.added", "output_index": 0,
                                                  "item": item}))
        if item["type"] == "message":
            ev.append(("response.output_text.delta", {"type": "response.output_text.delta", "item_id": item["id"],
                                                      "output_index": 0, "content_index": 0, "delta": DONE_TEXT}))
        ev.append(("response.output_item.done", {"type": "response.output_item.done", "output_index": 0,
                                                 "item": item}))
        ev.append(("response.completed", {"type": "response.completed", "response": done}))
        if body.get("stream") is False:
            return self.send_json(done)
        self.send_sse(ev)

    # -- Gemini ---------------------------------------------------------------------------------
    def gemini(self, body):
        path = self.path.split("?")[0]
        if path.endswith(":countTokens"):
            return self.send_json({"totalTokens": 100})
        if path.endswith(":embedContent") or path.endswith(":batchEmbedContents"):
            return self.send_json({"embedding": {"values": [0.0]}})
        cfg = self.server.cfg
        decls = {}
        for t in body.get("tools") or []:
            for d in (t or {}).get("functionDeclarations") or []:
                decls[d.get("name")] = d
        contents = body.get("contents") or []
        last = contents[-1] if contents else {}
        had_result = any("functionResponse" in p for p in (last.get("parts") or []) if isinstance(p, dict))
        part = None
        mcp = next((n for n in decls if MCP_TOOL and n and n.endswith("_" + MCP_TOOL)), None)
        if mcp and not had_result and not cfg.turn_done():
            part = {"functionCall": {"name": mcp, "args": MCP_ARGS}}
            cfg.mark_called()
        if not MCP_TOOL and "run_shell_command" in decls and not had_result and not cfg.turn_done():
            d = decls["run_shell_command"]
            schema = d.get("parameters") or d.get("parametersJsonSchema")
            part = {"functionCall": {"name": "run_shell_command", "args": fill_args(schema, cfg.command)}}
            cfg.mark_called()
        if had_result:
            cfg.mark_done()
        if part is None:
            gen = body.get("generationConfig") or body.get("config") or {}
            schema = gen.get("responseJsonSchema") or gen.get("responseSchema")
            if gen.get("responseMimeType") == "application/json" or schema:
                part = {"text": json.dumps(sample(schema or {}))}
            else:
                part = {"text": DONE_TEXT}
        chunk = {"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
                 "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
                 "modelVersion": "gemini-fake"}
        if ":streamGenerateContent" in path:
            self.send_sse([(None, chunk)])
        else:
            self.send_json(chunk)


class Config:
    def __init__(self, api, command, log):
        self.api, self.command, self.log = api, command, log
        self.lock = threading.Lock()
        self._called = False
        self._done = False

    def mark_called(self):
        self._called = True

    def mark_done(self):
        self._done = True

    def turn_done(self):
        # after the tool result came back once, never ask again (no loops)
        return self._done


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--api", choices=("anthropic", "responses", "gemini"), required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--command", default=os.environ.get("FAKE_COMMAND", "touch CANARY_RAN"))
    ap.add_argument("--log", required=True)
    a = ap.parse_args()
    srv = ThreadingHTTPServer((a.host, a.port), Handler)
    srv.daemon_threads = True
    srv.cfg = Config(a.api, a.command, a.log)
    print(f"fake {a.api} model on {a.host}:{a.port}", file=sys.stderr, flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
