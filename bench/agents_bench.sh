#!/usr/bin/env bash
# What the permission hook costs an agent run: each agent (the pinned versions of
# scripts/e2e/install_agents.sh) runs one harmless shell command (`touch CANARY_RAN && ls`)
# against the loopback fake model, N times without our hook and N times with it wired by
# `decisions install --agent` (the hook asks the loopback fake System One provider, which
# answers at once). The runs alternate, each in a fresh scratch project and HOME, confined to
# loopback as in scripts/agents-e2e.sh. Prints the median wall time of each and the difference,
# the provider round trip as the hook logged it (decision_answered elapsed_ms, median), and the
# hook process alone: `decisions hook AGENT` run N times (at least 5) on the input that agent
# sends, against the same fake provider (median wall time, process start to exit).
#
#   bash bench/agents_bench.sh [-n N] [AGENT...]     # N default 5; agents default all four
#
# Needs root (unshare -n), node/npm, python3. Codex runs with --dangerously-bypass-hook-trust in
# both arms (so the hook runs without a trust step; the flag costs nothing by itself).
set -euo pipefail
N=5
if [[ "${1:-}" == -n ]]; then N=$2; shift 2; fi
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_AGENTS=("$@")
[[ ${#BENCH_AGENTS[@]} -gt 0 ]] || BENCH_AGENTS=(claude-code codex gemini copilot)
set --
E2E_LIB_ONLY=1
# shellcheck source=../scripts/agents-e2e.sh
source "$ROOT/scripts/agents-e2e.sh"

median() { python3 -c 'import statistics,sys; v=[int(x) for x in sys.argv[1:]]; print(int(statistics.median(v)) if v else -1)' "$@"; }

echo "agents bench: $N runs each arm, harmless command, decisions $DECISIONS_BIN"
printf '%-12s %-34s %10s %10s %10s %10s %10s\n' agent version "no hook" "hook" "diff" "ask (log)" "hook alone"
for a in "${BENCH_AGENTS[@]}"; do
  without=() with=() self=()
  for i in $(seq 1 "$N"); do
    for arm in without with; do
      new_case "$a" "bench-$arm-$i"
      if [[ $arm == with ]]; then install_provider --agent "$a"; else install_provider; fi
      [[ $a == codex ]] && codex_trust_project
      run_agent "$a" ok "$HARMLESS" $(codex_bypass "$a")
      if ! canary; then echo "bench: $a $arm run $i did not run the command (rc $RC); see $C/out.txt" >&2; exit 1; fi
      if [[ $arm == with ]]; then
        provider_asked || { echo "bench: $a hook did not ask the provider in run $i" >&2; exit 1; }
        with+=("$WALL_MS")
        ms=$(python3 -c 'import json,sys
for l in open(sys.argv[1]):
    e=json.loads(l)
    if e.get("event")=="decision_answered": print(e.get("elapsed_ms",""))' "$P/.leopold/events.jsonl" | head -1)
        [[ -n $ms ]] && self+=("$ms")
      else
        without+=("$WALL_MS")
      fi
      rm -rf "$C"
    done
  done
  m0=$(median "${without[@]}") m1=$(median "${with[@]}") ms=$(median "${self[@]}")
  # the hook process alone: `decisions hook AGENT` fed the input the agent sends, N times
  new_case "$a" bench-hook
  install_provider --agent "$a"
  alone=$(cd "$P" && env -i PATH="$PATH" HOME="$H" TYPESAFE_API_KEY=e2e-fake-key \
    E2E_PROVIDER_PORT=$PROVIDER_PORT "$E2E_DIR/confined.sh" none ok "$C/logs" -- \
    python3 - "$DECISIONS_BIN" "$a" "$P" "$HARMLESS" "$N" <<'EOF2'
import json, statistics, subprocess, sys, time
binary, agent, cwd, command, n = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
if agent == "copilot":  # what Copilot CLI 1.0.102 sends: camelCase, toolArgs an object
    inp = json.dumps({"sessionId": "bench-0000", "timestamp": int(time.time() * 1000), "cwd": cwd,
                      "toolName": "bash", "toolArgs": {"command": command, "description": "bench"}})
else:
    event, tool = ("BeforeTool", "run_shell_command") if agent == "gemini" else ("PreToolUse", "Bash")
    inp = json.dumps({"session_id": "bench-0000", "cwd": cwd, "hook_event_name": event, "tool_name": tool,
                      "tool_input": {"command": command}})
ms = []
for _ in range(max(n, 5)):
    t = time.perf_counter()
    subprocess.run([binary, "hook", agent], input=inp, text=True, capture_output=True, check=True)
    ms.append((time.perf_counter() - t) * 1000)
print(round(statistics.median(ms)))
EOF2
  )
  rm -rf "$C"
  printf '%-12s %-34s %7d ms %7d ms %+7d ms %7d ms %7s ms\n' "$a" "$(agent_spec "$a")" "$m0" "$m1" "$((m1 - m0))" "$ms" "$alone"
  echo "  runs without: ${without[*]}; with: ${with[*]}"
done
