#!/usr/bin/env python3
"""Reads a fake model's request log (JSONL) and prints what the agent sent back to the model.

  tool_results.py LOG            the text of every tool result, one a line
  tool_results.py --calls LOG    every shell tool call found in the history the agent sent

Knows the three shapes: Anthropic `tool_result` blocks, OpenAI Responses `function_call_output`
items, Gemini `functionResponse` parts.
"""

import json
import sys


def text_of(x):
    if isinstance(x, str):
        return x
    if isinstance(x, list):
        return " ".join(text_of(i) for i in x)
    if isinstance(x, dict):
        if "text" in x and isinstance(x["text"], str):
            return x["text"]
        return json.dumps(x)
    return "" if x is None else str(x)


def walk(body):
    """Yields ("call", name, args) and ("result", text) found in one request body."""
    if not isinstance(body, dict):
        return
    for m in body.get("messages") or []:  # Anthropic
        content = m.get("content") if isinstance(m, dict) else None
        if isinstance(content, list):
            for b in content:
                if not isinstance(b, dict):
                    continue
                if b.get("type") == "tool_use":
                    yield ("call", b.get("name"), b.get("input"))
                elif b.get("type") == "tool_result":
                    yield ("result", text_of(b.get("content")))
    inp = body.get("input")  # OpenAI Responses
    if isinstance(inp, list):
        for i in inp:
            if not isinstance(i, dict):
                continue
            t = i.get("type", "")
            if t in ("function_call", "custom_tool_call", "local_shell_call"):
                yield ("call", i.get("name") or t, i.get("arguments") or i.get("action"))
            elif t.endswith("_output"):
                yield ("result", text_of(i.get("output")))
    for c in body.get("contents") or []:  # Gemini
        for p in (c or {}).get("parts") or []:
            if not isinstance(p, dict):
                continue
            if "functionCall" in p:
                fc = p["functionCall"]
                yield ("call", fc.get("name"), fc.get("args"))
            elif "functionResponse" in p:
                yield ("result", text_of(p["functionResponse"].get("response")))


def main():
    args = sys.argv[1:]
    calls = args and args[0] == "--calls"
    if calls:
        args = args[1:]
    seen = set()
    with open(args[0], encoding="utf-8") as f:
        for line in f:
            try:
                body = json.loads(line).get("body")
            except ValueError:
                continue
            for item in walk(body):
                if (item[0] == "call") != bool(calls):
                    continue
                out = json.dumps(item[1:]) if calls else item[1].replace("\n", " ")
                if out not in seen:
                    seen.add(out)
                    print(out)


if __name__ == "__main__":
    main()
