#!/usr/bin/env python3
"""Trusts our `decisions hook codex` entry the way Codex's own API does, for the e2e suite.

  codex_trust.py CODEX_BIN PROJECT_DIR HOME [--list]

Speaks JSON-RPC (one JSON object a line) to `codex app-server` on stdio: `initialize` with
`experimentalApi: true`, `initialized`, then `hooks/list` for the project's cwd; for each hook
whose command runs `decisions ... hook codex` it writes `{enabled: true, trusted_hash:
<currentHash>}` as `hooks.state."<key>"` with `config/value/write`
(keyPath `hooks.state`, upsert: the key itself holds dots, which keyPath would split) (the user's config.toml). The
hash is Codex's own, never computed here. --list only prints what hooks/list returned.
Prints one line per hook: key, event, trust status, command.
"""

import json
import os
import re
import subprocess
import sys

OURS = re.compile(r"(^|/|\s|\")decisions(\"|'|)?\s+hook\s+codex\b")


def main():
    codex, project, home = sys.argv[1:4]
    list_only = "--list" in sys.argv[4:]
    env = dict(os.environ, HOME=home, CODEX_HOME=os.path.join(home, ".codex"))
    p = subprocess.Popen([codex, "app-server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, env=env, cwd=project, text=True, bufsize=1)
    next_id = [0]

    def call(method, params):
        next_id[0] += 1
        rid = next_id[0]
        p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params}) + "\n")
        p.stdin.flush()
        while True:
            line = p.stdout.readline()
            if not line:
                raise SystemExit(f"codex app-server closed before answering {method}")
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if msg.get("id") == rid and ("result" in msg or "error" in msg):
                if "error" in msg:
                    raise SystemExit(f"{method}: {msg['error']}")
                return msg["result"]

    try:
        call("initialize", {"clientInfo": {"name": "decisions-e2e", "version": "0"},
                            "capabilities": {"experimentalApi": True}})
        p.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "initialized"}) + "\n")
        p.stdin.flush()
        listed = call("hooks/list", {"cwds": [project]})
        found = 0
        for entry in listed.get("data", []):
            for w in entry.get("warnings") or []:
                print("warning:", w)
            for e in entry.get("errors") or []:
                print("error:", e)
            for h in entry.get("hooks", []):
                cmd = h.get("command") or ""
                print(h.get("key"), h.get("eventName"), h.get("trustStatus"), h.get("source"), cmd)
                if list_only or not OURS.search(cmd):
                    continue
                found += 1
                # The key holds dots (".codex/config.toml:pre_tool_use:0:0") and keyPath splits on
                # every dot, so write the table one level up and let upsert merge it in
                call("config/value/write", {"keyPath": "hooks.state", "mergeStrategy": "upsert",
                                            "value": {h["key"]: {"enabled": True,
                                                                 "trusted_hash": h["currentHash"]}}})
                print("trusted", h["key"], h["currentHash"])
        if not list_only and not found:
            raise SystemExit("no decisions hook for codex in hooks/list")
    finally:
        p.stdin.close()
        p.terminate()
        p.wait(timeout=10)


if __name__ == "__main__":
    main()
