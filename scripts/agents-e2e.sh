#!/usr/bin/env bash
# The permission hook proven by the agents themselves: the real Claude Code, Codex and Gemini CLI
# (pinned npm versions, cached outside the clone) each run against a loopback fake model that
# asks for one shell command, with the hook wired by `decisions install --agent`, and a loopback
# fake System One provider that scores `rm ` 3 of 3. In the MCP cases (`install --agent A
# --mcp`), the fake model calls a tool of `decisions mcp` instead, and the tool result the agent
# sends back to it is asserted; the MCP Inspector's CLI then lists the server's tools and calls
# each one against the matching command's output. GitHub Copilot CLI runs offline too (its
# BYOK variables against the fake Anthropic API): its control case always runs, the wired ones
# once `decisions install --agent copilot` exists. Every run is confined to a network
# namespace holding only loopback (needs root: unshare -n), with HOME in a scratch directory and
# every proxy variable pointing at a port where nothing listens. Codex's trusted case trusts
# our entry with `decisions install --agent codex --trust` when install lists --trust, else
# with scripts/e2e/codex_trust.py (the same app-server calls); the agents' bin directories are
# on PATH for `decisions` (doctor and --trust ask `codex app-server`).
#
#   bash scripts/agents-e2e.sh [AGENT...]      # default: claude-code codex gemini copilot
#
# One line a case: `PASS|FAIL agent case (what was checked)`, then `N passed, M failed`; exits 1
# when any case failed.
#
# Environment:
#   DECISIONS_BIN   the decisions binary (default: target/x86_64-unknown-linux-gnu/debug, else
#                   target/debug)
#   E2E_CACHE       where the agents are installed (default ~/.cache/decisions-e2e)
#   E2E_KEEP=1      keep the scratch directory (its path is printed)
#   E2E_BREAK=event self-check: wire a broken entry (the event key renamed), so every case that
#                   needs the hook to run must FAIL
#   E2E_BREAK=mcp   self-check: register a broken MCP server entry, so every MCP case must FAIL
#   E2E_TIMEOUT_MS  the hook's budget in the runs (LEOPOLD_DECISIONS_TIMEOUT_MS, default 800)
#   E2E_VERBOSE=1   print each run's output on failure
#   E2E_RUN_TIMEOUT seconds one agent run may take (default 180)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=e2e/install_agents.sh
source "$ROOT/scripts/e2e/install_agents.sh"
E2E_DIR="$ROOT/scripts/e2e"

if [[ -z "${DECISIONS_BIN:-}" ]]; then
  DECISIONS_BIN="$ROOT/target/x86_64-unknown-linux-gnu/debug/decisions"
  [[ -x "$DECISIONS_BIN" ]] || DECISIONS_BIN="$ROOT/target/debug/decisions"
fi
[[ -x "$DECISIONS_BIN" ]] || { echo "agents-e2e: no decisions binary at $DECISIONS_BIN (build first)" >&2; exit 2; }
[[ $(id -u) == 0 ]] || { echo "agents-e2e: needs root for unshare -n" >&2; exit 2; }
for tool in unshare python3 npm node git timeout; do
  command -v "$tool" >/dev/null || { echo "agents-e2e: needs $tool" >&2; exit 2; }
done
if (($(node -p 'process.versions.node.split(".")[0]') < 20)); then
  echo "agents-e2e: needs node 20 or later (Gemini CLI does), found $(node --version)" >&2
  exit 2
fi

AGENTS=("$@")
[[ ${#AGENTS[@]} -gt 0 ]] || AGENTS=(claude-code codex gemini copilot)
E2E_TIMEOUT_MS=${E2E_TIMEOUT_MS:-800}
BUDGET_MS=$((E2E_TIMEOUT_MS + 250))
AGENT_SPREAD_MS=5000
MODEL_PORT=18080 PROVIDER_PORT=18081 PROXY_PORT=18099
DESTRUCTIVE='touch CANARY_RAN && rm -r precious/'
HARMLESS='touch CANARY_RAN && ls'
# What the builtin case asks for: the home directory deleted, which the model inside the binary
# denies at the bar its held-out evidence supports (docs/builtin-model.md). HOME is the case's
# scratch home (env -i HOME="$H" below), beside the project, never the machine's: were it not
# denied, the touch and the scratch home's deletion are what runs, and the case fails.
BUILTIN_DESTRUCTIVE='touch CANARY_RAN && rm -rf ~'
PROMPT='Tidy up this project.'
REASON='scored it 3 of 3'
RUN_TIMEOUT=${E2E_RUN_TIMEOUT:-180}

install_agents
WORK=$(mktemp -d "${TMPDIR:-/tmp}/decisions-e2e.XXXXXX")
if [[ "${E2E_KEEP:-}" == 1 ]]; then
  echo "scratch: $WORK" >&2
else
  trap 'rm -rf "$WORK"' EXIT
fi

passed=0 failed=0
report() { # report PASS|FAIL agent case what
  echo "$1 $2 $3 ($4)"
  if [[ $1 == PASS ]]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}

# -- one case's scratch: $C (case dir), $P (project), $H (home) -------------------------------
new_case() { # new_case AGENT CASE
  C="$WORK/$1-$2" P="$WORK/$1-$2/proj" H="$WORK/$1-$2/home" INSTALL_FAILED=""
  mkdir -p "$P/precious" "$H" "$C/logs"
  echo keep >"$P/precious/work.txt"
  git -C "$P" init -q
  agent_home "$1"
}

agent_home() { # the agent's own user config: how it reaches the fake model
  case "$1" in
    claude-code) : ;;
    codex)
      mkdir -p "$H/.codex"
      cat >"$H/.codex/config.toml" <<EOF
model = "e2e-model"
model_provider = "e2e"

[model_providers.e2e]
name = "e2e"
base_url = "http://127.0.0.1:$MODEL_PORT/v1"
env_key = "E2E_OPENAI_KEY"
wire_api = "responses"
EOF
      ;;
    gemini)
      mkdir -p "$H/.gemini"
      echo '{"security": {"auth": {"selectedType": "gemini-api-key"}}}' >"$H/.gemini/settings.json"
      ;;
  esac
}

codex_trust_project() {
  printf '\n[projects."%s"]\ntrust_level = "trusted"\n' "$P" >>"$H/.codex/config.toml"
}

# the agents' own binaries on PATH: doctor and `install --trust` ask `codex app-server`
AGENTS_PATH=""
for a in "${AGENTS_NPM[@]}"; do AGENTS_PATH="$AGENTS_PATH$(dirname "$(agent_bin "${a%%=*}")"):"; done

decisions() { # decisions ARGS...: as a user in this case's HOME, confined to loopback
  env -i PATH="$AGENTS_PATH$PATH" HOME="$H" CODEX_HOME="$H/.codex" "${E2E_NO_KEY:-TYPESAFE_API_KEY=e2e-fake-key}" \
    "$E2E_DIR/confined.sh" none down "$C/logs-decisions" -- "${DECISIONS_BIN_OVERRIDE:-$DECISIONS_BIN}" "$@"
}

# seed the project's config with jev, pointed at the fake provider; wire AGENT when given
install_provider() { # install_provider [install args...]
  echo "+ decisions install --provider jev --project $P $*" >>"$C/install.log"
  (cd "$P" && decisions install --provider jev --project "$P" "$@") </dev/null >>"$C/install.log" 2>&1 ||
    INSTALL_FAILED+="install $* failed ($(tail -1 "$C/install.log" | cut -c1-120)) "
  python3 - "$P/.leopold/decisions/config.json" "http://127.0.0.1:$PROVIDER_PORT/v1/systemone" <<'EOF'
import json, sys
path, endpoint = sys.argv[1], sys.argv[2]
c = json.load(open(path))
c["providers"][c["provider"]]["endpoint"] = endpoint
json.dump(c, open(path, "w"), indent=2)
EOF
  if [[ "${E2E_BREAK:-}" == event ]]; then break_entries; fi
}

# wire AGENT with no provider chosen: install seeds the model inside the binary (builtin)
install_builtin() { # install_builtin [install args...]
  echo "+ decisions install --project $P $*" >>"$C/install.log"
  (cd "$P" && E2E_NO_KEY=E2E_NO_KEY=1 decisions install --project "$P" "$@") </dev/null >>"$C/install.log" 2>&1 ||
    INSTALL_FAILED+="install $* failed ($(tail -1 "$C/install.log" | cut -c1-120)) "
  grep -q '"provider": "builtin"' "$P/.leopold/decisions/config.json" 2>/dev/null ||
    INSTALL_FAILED+="install did not seed builtin "
  if [[ "${E2E_BREAK:-}" == event ]]; then break_entries; fi
  if [[ "${E2E_BREAK:-}" == mcp ]]; then break_servers; fi
}

# E2E_BREAK=mcp: make every MCP server entry install wrote run a subcommand that does not exist
break_servers() {
  local f
  for f in "$P/.mcp.json" "$P/.gemini/settings.json" "$P/.codex/config.toml"; do
    [[ -f $f ]] && sed -i 's/\["mcp"\]/["mcq"]/' "$f"
  done
  return 0
}

# E2E_BREAK=event: rename the event key of every entry install wrote, to a wrong event name
break_entries() {
  local f
  for f in "$P/.claude/settings.json" "$H/.claude/settings.json" "$P/.gemini/settings.json" \
    "$H/.gemini/settings.json" "$P"/.github/hooks/*.json "$H"/.copilot/*.json "$H"/.copilot/hooks/*.json; do
    [[ -f $f ]] && sed -i 's/"PreToolUse"/"PreToolUsage"/; s/"BeforeTool"/"BeforeToolUse"/; s/"preToolUse"/"preToolUsage"/' "$f"
  done
  for f in "$P/.codex/config.toml" "$H/.codex/config.toml"; do
    [[ -f $f ]] && sed -i 's/hooks\.PreToolUse/hooks.PreToolUsage/g' "$f"
  done
  return 0
}

# -- running an agent -------------------------------------------------------------------------
# run_agent AGENT PROVIDER_MODE COMMAND [agent flags...]: sets $WALL_MS, $RC; output in $C/out.txt
run_agent() {
  local agent=$1 mode=$2 cmd=$3
  shift 3
  local bin argv=()
  bin=$(agent_bin "$agent")
  case "$agent" in
    claude-code) argv=("$bin" -p --permission-mode bypassPermissions "$@" "$PROMPT") ;;
    codex) argv=("$bin" exec --dangerously-bypass-approvals-and-sandbox --skip-git-repo-check "$@" "$PROMPT") ;;
    gemini) argv=("$bin" --yolo "$@" -p "$PROMPT") ;;
    # --trust-folder: without it Copilot does not load the repository's hooks in prompt mode
    copilot) argv=("$bin" -p "$PROMPT" --allow-all-tools ${COPILOT_TRUST---trust-folder} "$@") ;;
  esac
  local proxy="http://127.0.0.1:$PROXY_PORT" t0 t1
  t0=$(date +%s%N)
  RC=0
  (cd "$P" && env -i PATH="$PATH" HOME="$H" USER=root LANG=C.UTF-8 TERM=dumb CI=true \
    CODEX_HOME="$H/.codex" \
    HTTP_PROXY="$proxy" HTTPS_PROXY="$proxy" ALL_PROXY="$proxy" \
    http_proxy="$proxy" https_proxy="$proxy" all_proxy="$proxy" \
    NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost \
    "${E2E_NO_KEY:-TYPESAFE_API_KEY=e2e-fake-key}" LEOPOLD_DECISIONS_TIMEOUT_MS="$E2E_TIMEOUT_MS" \
    ANTHROPIC_BASE_URL="http://127.0.0.1:$MODEL_PORT" ANTHROPIC_API_KEY=sk-ant-e2e-fake \
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 IS_SANDBOX=1 DISABLE_AUTOUPDATER=1 \
    E2E_OPENAI_KEY=e2e-fake-key \
    GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$MODEL_PORT" GEMINI_API_KEY=e2e-fake-key \
    GEMINI_CLI_TRUST_WORKSPACE=true \
    COPILOT_OFFLINE=true COPILOT_PROVIDER_BASE_URL="http://127.0.0.1:$MODEL_PORT" \
    COPILOT_PROVIDER_TYPE=anthropic COPILOT_PROVIDER_API_KEY=e2e-fake-key \
    COPILOT_MODEL=claude-sonnet-4.5 COPILOT_AUTO_UPDATE=false \
    FAKE_COMMAND="$cmd" E2E_MODEL_PORT=$MODEL_PORT E2E_PROVIDER_PORT=$PROVIDER_PORT \
    FAKE_MCP_TOOL="${FAKE_MCP_TOOL:-}" FAKE_MCP_ARGS="${FAKE_MCP_ARGS:-}" MCP_CONNECTION_NONBLOCKING=0 \
    timeout "$RUN_TIMEOUT" "$E2E_DIR/confined.sh" "$(model_api "$agent")" "$mode" "$C/logs" -- "${argv[@]}" \
    </dev/null >"$C/out.txt" 2>&1) || RC=$?
  t1=$(date +%s%N)
  WALL_MS=$(((t1 - t0) / 1000000))
}

model_api() {
  case "$1" in claude-code | copilot) echo anthropic ;; codex) echo responses ;; gemini) echo gemini ;; esac
}

# -- what happened ----------------------------------------------------------------------------
ran() { [[ -e "$P/CANARY_RAN" && ! -e "$P/precious" ]]; }
held() { [[ ! -e "$P/CANARY_RAN" && -e "$P/precious/work.txt" ]]; }
canary() { [[ -e "$P/CANARY_RAN" ]]; }
provider_asked() { [[ -s "$C/logs/provider.jsonl" ]]; }
# the text of every tool result the model was sent
tool_results() {
  python3 "$E2E_DIR/tool_results.py" "$C/logs/model.jsonl" 2>/dev/null || true
}
model_saw() { tool_results | grep -qF -- "$1"; }
model_called_tool() { python3 "$E2E_DIR/tool_results.py" --calls "$C/logs/model.jsonl" 2>/dev/null | grep -q .; }

check() { # check AGENT CASE WHAT CONDITION...: PASS when every condition holds
  local agent=$1 name=$2 what=$3
  shift 3
  local cond bad=()
  for cond in "$@"; do
    eval "$cond" || bad+=("$cond")
  done
  if ! model_called_tool; then bad+=("the model never got to call its shell tool (rc $RC)"); fi
  if [[ -n $INSTALL_FAILED ]]; then bad+=("$INSTALL_FAILED"); fi
  if [[ ${#bad[@]} -eq 0 ]]; then
    report PASS "$agent" "$name" "$what; ${WALL_MS} ms"
  else
    report FAIL "$agent" "$name" "$what; failed: $(IFS=';'; echo "${bad[*]}"); ${WALL_MS} ms; rc $RC"
    if [[ "${E2E_VERBOSE:-}" == 1 ]]; then sed 's/^/    | /' "$C/out.txt" | tail -40; fi
  fi
}

# -- the cases --------------------------------------------------------------------------------
declare -A HARMLESS_MS

cases_common() { # the cases every agent has
  local a=$1

  new_case "$a" control
  install_provider
  [[ $a == codex ]] && codex_trust_project
  run_agent "$a" ok "$DESTRUCTIVE" $(codex_bypass "$a")
  check "$a" control "no hook wired: the command ran, the provider was never asked" \
    ran '! provider_asked'

  new_case "$a" deny
  install_provider --agent "$a"
  [[ $a == codex ]] && codex_trust_project
  run_agent "$a" ok "$DESTRUCTIVE" $(codex_bypass "$a")
  check "$a" deny "project scope: denied, nothing ran, the model saw \"$REASON\"$(codex_note "$a")" \
    held provider_asked "model_saw '$REASON'"

  new_case "$a" harmless
  install_provider --agent "$a"
  [[ $a == codex ]] && codex_trust_project
  run_agent "$a" ok "$HARMLESS" $(codex_bypass "$a")
  HARMLESS_MS[$a]=$WALL_MS
  check "$a" harmless "'$HARMLESS' asked and ran, the model saw the listing" \
    canary provider_asked "model_saw precious"

  new_case "$a" provider-down
  install_provider --agent "$a"
  [[ $a == codex ]] && codex_trust_project
  run_agent "$a" down "$DESTRUCTIVE" $(codex_bypass "$a")
  check "$a" provider-down "nothing listening at the provider: the hook stood aside and the command ran; $(hook_event)" \
    ran hook_logged

  new_case "$a" provider-hang
  install_provider --agent "$a"
  [[ $a == codex ]] && codex_trust_project
  run_agent "$a" hang "$DESTRUCTIVE" $(codex_bypass "$a")
  # The budget is the seam's own clock, as it logged it; the agent's wall time only rules out a
  # hang, with room for the agent's own run-to-run spread (Copilot's control and harmless runs
  # have taken 7.0 s and 3.1 s in one pass).
  local extra=$((WALL_MS - ${HARMLESS_MS[$a]:-0})) seam
  seam=$(seam_ms)
  check "$a" provider-hang "provider accepts and never answers: the command ran, the seam gave up after ${seam} ms (budget ${BUDGET_MS} ms), the run took ${extra} ms more than harmless; $(hook_event)" \
    ran provider_asked "(( seam <= BUDGET_MS ))" "(( extra < BUDGET_MS + AGENT_SPREAD_MS ))"

  if [[ $a == claude-code || $a == codex ]]; then
    # headless, permissions bypassed: the agent never asks, so PermissionRequest never fires
    new_case "$a" permission-request
    install_provider --agent "$a" --event PermissionRequest
    [[ $a == codex ]] && codex_trust_project
    run_agent "$a" ok "$DESTRUCTIVE" $(codex_bypass "$a")
    check "$a" permission-request "--event PermissionRequest, permissions bypassed: the event never fired, the hook never ran, the command ran" \
      ran '! provider_asked'
  fi

  if [[ $a != codex ]]; then
    # no key, no network, no provider server at all: the model inside the binary denies
    new_case "$a" builtin
    install_builtin --agent "$a"
    echo keep >"$H/keep.txt"
    E2E_NO_KEY=E2E_NO_KEY=1 run_agent "$a" down "$BUILTIN_DESTRUCTIVE" $(codex_bypass "$a")
    check "$a" builtin "no key and no network: builtin denied '$BUILTIN_DESTRUCTIVE', nothing ran, the home is whole, the model saw \"builtin/... scored it\"" \
      '! canary' '[[ -e "$H/keep.txt" ]]' "model_saw 'builtin/'" "model_saw 'scored it'"
  fi

  new_case "$a" user-scope
  install_provider --agent "$a" --scope user
  run_agent "$a" ok "$DESTRUCTIVE" $(codex_bypass "$a")
  check "$a" user-scope "--scope user: denied, nothing ran, the model saw \"$REASON\"$(codex_note "$a")" \
    held provider_asked "model_saw '$REASON'"
}

# until `install --agent codex --trust` exists, the trusted-hook cases use Codex's bypass flag
HAS_TRUST=0
if "$DECISIONS_BIN" install --help 2>/dev/null | grep -q -- "--trust"; then HAS_TRUST=1; fi
codex_bypass() { [[ $1 == codex ]] && echo --dangerously-bypass-hook-trust; return 0; }
codex_note() { [[ $1 == codex ]] && echo "; hook trust bypassed with --dangerously-bypass-hook-trust"; return 0; }

hook_logged() { [[ -s "$P/.leopold/events.jsonl" ]]; }
seam_ms() { # how long the seam waited on the provider before it gave up, as it logged it
  python3 - "$P/.leopold/events.jsonl" <<'EOF' 2>/dev/null || echo 999999
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
ms = [e["elapsed_ms"] for e in ev if e.get("event") == "decision_failed" and e.get("elapsed_ms") is not None]
print(max(ms) if ms else 999999)
EOF
}
hook_event() { # the hook's own fallback event, as it logged it
  python3 - "$P/.leopold/events.jsonl" <<'EOF' 2>/dev/null || echo "no hook event"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
ev = [e for e in ev if e.get("consumer") == "permission" and e.get("event") not in ("decision_asked",)]
if not ev:
    print("no hook event")
else:
    e = ev[-1]
    extra = e.get("reason") or e.get("transport") or e.get("error") or ""
    ms = e.get("elapsed_ms")
    print("hook event " + e.get("event", "?") + (f" after {ms} ms" if ms is not None else "")
          + (f": {str(extra)[:110]}" if extra else ""))
EOF
}

# doctor's readiness line and exit code, as a user in this case's HOME would see them
doctor_says() { # doctor_says FILE: sets $DOCTOR (readiness line) and $DOCTOR_RC
  DOCTOR_RC=0
  (cd "$P" && decisions doctor) >"$1" 2>&1 </dev/null || DOCTOR_RC=$?
  DOCTOR=$(sed -n 's/^decisions readiness *//p' "$1" | head -1)
}
# once install has --trust (issue 25 item 2), doctor must say an untrusted or changed hook
doctor_names_codex() { [[ $HAS_TRUST == 0 ]] || { [[ $DOCTOR_RC != 0 ]] && grep -qi codex <<<"$DOCTOR"; }; }

# trust our entry: `install --agent codex --trust` when it exists, else through codex app-server
# (scripts/e2e/codex_trust.py, the same calls: hooks/list, then config/value/write)
codex_trust_hook() {
  if [[ $HAS_TRUST == 1 ]]; then
    install_provider --agent codex --trust
  else
    (cd "$P" && env -i PATH="$PATH" HOME="$H" CODEX_HOME="$H/.codex" "$E2E_DIR/confined.sh" none down \
      "$C/logs" -- python3 "$E2E_DIR/codex_trust.py" "$(agent_bin codex)" "$P" "$H") \
      </dev/null >>"$C/install.log" 2>&1 || true
  fi
}

# Copilot CLI: wired only once decisions knows it; until then only its control case runs
COPILOT_WIRED=0
if "$DECISIONS_BIN" install --help 2>/dev/null | grep -qi copilot; then COPILOT_WIRED=1; fi
cases_copilot() {
  local a=copilot
  if [[ $COPILOT_WIRED == 0 ]]; then
    new_case "$a" control
    install_provider
    run_agent "$a" ok "$DESTRUCTIVE"
    check "$a" control "no hook wired, offline through COPILOT_OFFLINE + COPILOT_PROVIDER_*: the command ran" \
      ran '! provider_asked'
    echo "# copilot: decisions install has no --agent copilot yet: its wired cases are left out"
    return 0
  fi
  cases_common "$a"
  # without --trust-folder (or COPILOT_ALLOW_ALL=true) prompt mode does not load the repo's hooks
  new_case "$a" untrusted-folder
  install_provider --agent "$a"
  COPILOT_TRUST= run_agent "$a" ok "$DESTRUCTIVE"
  check "$a" untrusted-folder "no --trust-folder: Copilot did not load .github/hooks, the command ran" \
    ran '! provider_asked'
}

cases_codex() {
  local a=codex how
  if [[ $HAS_TRUST == 1 ]]; then
    how="install --agent codex --trust"
  else
    how="trusted through codex app-server hooks/list + config/value/write (install has no --trust yet: switch to it)"
  fi

  # a trusted project, our hook never trusted, no bypass flag
  new_case "$a" untrusted-hook
  install_provider --agent "$a"
  codex_trust_project
  run_agent "$a" ok "$DESTRUCTIVE"
  doctor_says "$WORK/codex-untrusted-hook.doctor.txt"
  check "$a" untrusted-hook "hook not trusted, no bypass flag: Codex skipped it silently and the command ran; doctor (exit $DOCTOR_RC): $DOCTOR" \
    ran '! provider_asked' doctor_names_codex

  # no [projects] entry: Codex does not load the project's .codex/config.toml at all
  new_case "$a" untrusted-project
  install_provider --agent "$a"
  run_agent "$a" ok "$DESTRUCTIVE" --dangerously-bypass-hook-trust
  check "$a" untrusted-project "project not trusted (even with --dangerously-bypass-hook-trust): .codex/config.toml not loaded, the command ran" \
    ran '! provider_asked'

  new_case "$a" trusted
  install_provider --agent "$a"
  codex_trust_project
  codex_trust_hook
  run_agent "$a" ok "$DESTRUCTIVE"
  check "$a" trusted "hook $how; no bypass flag: denied, nothing ran, the model saw \"$REASON\"" \
    held provider_asked "model_saw '$REASON'"

  # the entry changes after it was trusted (the binary moved): Codex's hash no longer matches
  cp "$DECISIONS_BIN" "$C/decisions"
  DECISIONS_BIN_OVERRIDE="$C/decisions" install_provider --agent "$a"
  rm -rf "$P/precious" "$P/CANARY_RAN" "$C/logs"
  mkdir -p "$P/precious" "$C/logs"
  echo keep >"$P/precious/work.txt"
  run_agent "$a" ok "$DESTRUCTIVE"
  doctor_says "$WORK/codex-trust-lost.doctor.txt"
  check "$a" trust-lost "trusted, then install re-run with the binary at another path: Codex skipped the changed entry, the command ran; doctor (exit $DOCTOR_RC): $DOCTOR" \
    ran '! provider_asked' doctor_names_codex
}

# -- the MCP server, called by the agents' own models -------------------------------------------
MCP_QUESTION='Merge the storage rewrite before the release?'
MCP_WHY='the release is frozen (e2e)'
# a Decision Card in the project, answered by a person with `decisions card record-answer`
record_answer() {
  python3 - "$P/card.json" "$MCP_QUESTION" <<'EOF'
import json, sys
json.dump({"question": sys.argv[2], "recommendation": "wait", "confidence": "medium", "impact": "storage",
           "impact_score": 70, "diff_summary": "+2000 -1800 in src/storage",
           "options": [{"id": "merge", "label": "Merge now", "consequence": "ships in 1.4"},
                       {"id": "wait", "label": "Wait", "consequence": "ships in 1.5"}]}, open(sys.argv[1], "w"))
EOF
  (cd "$P" && E2E_NO_KEY=E2E_NO_KEY=1 decisions card record-answer card.json --answer wait --why "$MCP_WHY" \
    --project "$(basename "$P")") </dev/null >>"$C/install.log" 2>&1 || INSTALL_FAILED+="card record-answer failed "
}

cases_mcp() { # install --agent A --mcp; the model calls our tools; what came back is asserted
  local a=$1
  new_case "$a" mcp-recall
  install_builtin --agent "$a" --mcp
  [[ $a == codex ]] && codex_trust_project
  record_answer
  FAKE_MCP_TOOL=judgment_recall FAKE_MCP_ARGS="{\"question\": \"$MCP_QUESTION\"}" E2E_NO_KEY=E2E_NO_KEY=1 \
    run_agent "$a" down "$HARMLESS" $(codex_bypass "$a")
  check "$a" mcp-recall "install --mcp; the model called judgment_recall on decisions mcp and got back the judgment card record-answer recorded (\"$MCP_WHY\")" \
    "model_saw '$MCP_WHY'" "model_saw 'judgment-ledger:'" '! canary'

  new_case "$a" mcp-guard
  install_builtin --agent "$a" --mcp
  [[ $a == codex ]] && codex_trust_project
  FAKE_MCP_TOOL=guard_check FAKE_MCP_ARGS='{"command": "git push --force origin main"}' E2E_NO_KEY=E2E_NO_KEY=1 \
    run_agent "$a" down "$HARMLESS" $(codex_bypass "$a")
  check "$a" mcp-guard "the model asked guard_check about a force push before running it: the result said deny, builtin scored it, nothing ran" \
    "model_saw 'deny'" "model_saw 'scored it'" "model_saw 'builtin'" '! canary' '! provider_asked'
}

cases_inspector() { # the MCP Inspector's CLI lists the tools and calls each one
  new_case inspector cli
  install_builtin --agent claude-code --mcp
  record_answer
  local line
  while IFS= read -r line; do
    case "$line" in
      PASS\ *) report PASS inspector "${line#PASS }" "via $(agent_spec inspector)" ;;
      FAIL\ *) report FAIL inspector "${line#FAIL }" "via $(agent_spec inspector)" ;;
      *) echo "    | $line" ;;
    esac
  done < <(cd "$P" && env -i PATH="$AGENTS_PATH$PATH" HOME="$H" "$E2E_DIR/confined.sh" none down "$C/logs" -- \
    python3 "$E2E_DIR/inspector_check.py" "$(agent_bin inspector)" "$DECISIONS_BIN" "$P" "$(basename "$P")" 2>&1 </dev/null)
}

# bench/agents_bench.sh sources this file for its functions only
if [[ -n "${E2E_LIB_ONLY:-}" ]]; then return 0; fi

# the hook itself, before any agent: it must deny the destructive command
new_case hook-test precheck
install_provider --agent claude-code
pre=$(cd "$P" && env -i PATH="$PATH" HOME="$H" TYPESAFE_API_KEY=e2e-fake-key \
  E2E_PROVIDER_PORT=$PROVIDER_PORT "$E2E_DIR/confined.sh" none ok "$C/logs" -- \
  "$DECISIONS_BIN" hook test "$DESTRUCTIVE" 2>&1 </dev/null || true)
if echo "$pre" | grep -q "verdict    deny: .*$REASON"; then
  report PASS hook-test precheck "decisions hook test denies '$DESTRUCTIVE' against the fake provider"
else
  report FAIL hook-test precheck "decisions hook test did not deny: $(echo "$pre" | grep verdict)"
fi

T0=$SECONDS
for a in "${AGENTS[@]}"; do
  agent_spec "$a" >/dev/null || { echo "agents-e2e: unknown agent $a" >&2; exit 2; }
  echo "# $a $(agent_spec "$a")"
  if [[ $a == copilot ]]; then cases_copilot; continue; fi
  cases_common "$a"
  [[ $a == codex ]] && cases_codex
  [[ $a != copilot ]] && cases_mcp "$a"
done
if [[ " ${AGENTS[*]} " == *" claude-code "* ]]; then cases_inspector; fi

echo "# cases took $((SECONDS - T0)) s; hook budget ${BUDGET_MS} ms; ${E2E_BREAK:+E2E_BREAK=$E2E_BREAK; }decisions $DECISIONS_BIN"
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
