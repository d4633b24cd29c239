#!/usr/bin/env python3
"""Pick tldr-pages examples of programs no labelled row names: the commands of `model/unseen-tldr/`,
a set kept apart from training that measures the model on the long tail of programs.

Programs are taken in the order of a hash of their name, among the tldr pages (not Windows) whose
tool no row of `model/labels/commands.jsonl` names and that `train::held_out` would keep in
training (so a later batch made this way can train without touching the held-out split). Of
them, DESTRUCTIVE whose page has an example that describes deleting, sending, deploying,
restoring and the like, and OTHERS of the rest; two examples each (one such example and one
other where the page has both), picked by hash. Placeholders are filled with the ordinary values
of the labelled rows (`{{path/to/file}}` is `notes.txt`, `{{username}}` is `alice`,
`{{[-f|--force]}}` one of its two spellings); examples that run a command or subcommand given as
a placeholder (`sudo {{command}}`) are left out, since what runs cannot be seen, and so are the
examples typed at another program's prompt (`put file` in `sftp`), which the shell never sees.
Deterministic: the same data give the same rows.

    python3 scripts/tldr-pick.py FIRST_ID DESTRUCTIVE OTHERS > commands.jsonl
    python3 scripts/tldr-pick.py 1 560 240      # model/unseen-tldr/commands.jsonl
"""
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ACTS = re.compile(
    r"\b(delete|remove|destroy|purge|drop|wipe|erase|overwrite|reset|revoke|send|publish|push|"
    r"deploy|upload|restore|import|uninstall|kill|shut ?down|reboot|format|truncate|terminate|"
    r"cancel|release|submit|apply|migrate|rollback|revert|replace|force|flash|write|clear|clean|"
    r"prune|stop|disable|post|broadcast|transfer|sync)", re.I)
WRAPPERS = {"sudo", "doas", "env", "nice", "time", "nohup", "command", "exec"}
VALUES = {
    "path/to/file": "notes.txt", "path/to/directory": "build", "path/to/file_or_directory": "build",
    "path/to/file1 path/to/file2 ...": "notes.txt todo.md", "path/to/file1": "notes.txt",
    "path/to/file2": "todo.md", "path/to/output_directory": "out", "path/to/input_file": "input.txt",
    "path/to/output_file": "out.txt", "path/to/output": "out", "path/to/binary": "build/app",
    "username": "alice", "user": "alice", "password": "s3cret", "host": "build.example.com",
    "hostname": "build.example.com", "remote_host": "build.example.com", "url": "https://example.com/data.json",
    "https://example.com": "https://example.com", "ip_address": "192.168.1.42", "port": "8080",
    "domain": "example.com", "example.com": "example.com", "/dev/sdX": "/dev/sdb", "/dev/sdXY": "/dev/sdb1",
    "/dev/sdXN": "/dev/sdb1", "package": "requests", "package_name": "requests",
    "package1 package2 ...": "requests rich", "name": "web", "value": "1", "version": "1.2.3",
    "branch_name": "feature/login", "remote_name": "origin", "message": "fix typo", "tag": "v1.2.3",
    "repository": "acme/api", "database_name": "app_dev", "container_name": "web", "image": "nginx:1.27",
    "project_name": "shop", "bucket_name": "acme-assets", "pid": "4242", "eth0": "eth0",
}
HIDDEN = re.compile(r"\{\{(command|subcommand|command_name|program|cmd|script)[^}]*\}\}", re.I)


def fnv1a(text):
    h = 0xCBF29CE484222325
    for b in text.encode():
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def held_out(tool):
    return fnv1a(f"heldout:{tool}") % (1 << 16) % 5 == 0


def fill(template):
    def option(m):
        short, long = m.group(1), m.group(2)
        return long if fnv1a(template) % 2 else short

    t = re.sub(r"\{\{\[([^|\]]*)\|([^\]]*)\]\}\}", option, template)

    def value(m):
        v = m.group(1)
        if v in VALUES:
            return VALUES[v]
        if "|" in v:
            return v.split("|")[0]
        if " " in v:
            return " ".join(value(re.match(r"(.*)", w)) for w in v.split() if w != "...")
        if v.startswith("path/to/"):
            last = v.rsplit("/", 1)[-1]
            return last.replace(" ", "_")
        return v.replace(" ", "_").replace("...", "").strip("_") or "x"

    return re.sub(r"\{\{([^}]*)\}\}", value, t)


def tool_of(command):
    for word in command.split():
        if "=" in word and not word.startswith("-"):
            continue
        if word in WRAPPERS or word.startswith("-"):
            continue
        return word.rsplit("/", 1)[-1]
    return ""


def kind_of(command):
    if re.search(r"\|\||&&|;|\||\$\(", command):
        return "compound"
    return "wrapper" if command.split()[0] in WRAPPERS else "plain"


def main():
    first, destructive, others = (int(a) for a in sys.argv[1:4])
    rows = [json.loads(l) for l in (ROOT / "model/labels/commands.jsonl").open()]
    labelled = {r["tool"] for r in rows}
    known = {r["command"] for r in rows}
    pages = {}
    for line in (ROOT / "model/data/tldr-examples.jsonl").open():
        r = json.loads(line)
        if r["platform"] == "windows" or "\n" in r["command"] or HIDDEN.search(r["command"]):
            continue
        command = fill(r["command"])
        tool = tool_of(command)
        if not re.match(r"^[\w.+-]+$", tool) or tool in labelled or held_out(tool) or command in known or len(command) > 200:
            continue
        pages.setdefault(r["page"], []).append((r, command, tool))
    picked = {True: [], False: []}
    for page in sorted(pages, key=lambda p: fnv1a(f"pick:{p}")):
        examples = pages[page]
        acts = [e for e in examples if ACTS.search(e[0]["example"])]
        group = picked[bool(acts)]
        if len(group) >= (destructive if acts else others) or len(examples) < 2:
            continue
        order = sorted(examples, key=lambda e: fnv1a(f"ex:{e[1]}"))
        first_pick = sorted(acts, key=lambda e: fnv1a(f"ex:{e[1]}"))[0] if acts else order[0]
        second = next(e for e in order if e is not first_pick)
        group.append((page, [first_pick, second]))
    rows = sorted(picked[True] + picked[False], key=lambda g: g[0])
    i = first
    seen = set()
    for page, examples in rows:
        for r, command, tool in examples:
            # Typed at another program's prompt (`put file` in sftp), not a shell command.
            if command in seen or r["example"].startswith("[Interactive]"):
                continue
            seen.add(command)
            print(json.dumps({"id": i, "command": command, "tool": tool, "kind": kind_of(command),
                              "source": "tldr", "page": page}))
            i += 1


if __name__ == "__main__":
    main()
