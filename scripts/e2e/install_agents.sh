#!/usr/bin/env bash
# Installs the pinned agent CLIs from npm into a cache outside the clone, once each.
# Sourced by scripts/agents-e2e.sh and bench/agents_bench.sh; run alone, it only installs.
# A version bump is one line in AGENTS_NPM below.
set -euo pipefail

# agent=package@version: the versions the e2e suite is run against
AGENTS_NPM=(
  "claude-code=@anthropic-ai/claude-code@2.1.197"
  "codex=@openai/codex@0.171.0"
  "gemini=@google/gemini-cli@0.61.0"
  "copilot=@github/copilot@1.0.102"
  # not an agent: the MCP Inspector's CLI, a reference MCP client for `decisions mcp` (2.x runs
  # its --cli mode on node 20, though its package asks for 22)
  "inspector=@modelcontextprotocol/inspector@2.12.0"
)
E2E_CACHE="${E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/decisions-e2e}"

# agent_spec AGENT: prints package@version for AGENT
agent_spec() {
  local a
  for a in "${AGENTS_NPM[@]}"; do
    if [[ "${a%%=*}" == "$1" ]]; then echo "${a#*=}"; return 0; fi
  done
  return 1
}

# agent_dir AGENT: the install prefix of AGENT's pinned version
agent_dir() { echo "$E2E_CACHE/$(agent_spec "$1")"; }

# agent_bin AGENT: the agent's executable
agent_bin() {
  local dir name
  dir=$(agent_dir "$1")
  case "$1" in
    claude-code) name=claude ;;
    inspector) name=mcp-inspector ;;
    *) name=$1 ;;
  esac
  echo "$dir/node_modules/.bin/$name"
}

# install_agent AGENT: npm install into the cache unless the stamp says it is there
install_agent() {
  local spec dir
  spec=$(agent_spec "$1")
  dir=$(agent_dir "$1")
  if [[ -f "$dir/.installed" && -x "$(agent_bin "$1")" ]]; then
    return 0
  fi
  rm -rf "$dir"
  mkdir -p "$dir"
  echo "installing $spec into $dir" >&2
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error --engine-strict=false "$spec" </dev/null >&2
  date -u +%FT%TZ >"$dir/.installed"
}

install_agents() {
  local a
  for a in "${AGENTS_NPM[@]}"; do install_agent "${a%%=*}"; done
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  install_agents
  for a in "${AGENTS_NPM[@]}"; do echo "${a#*=} $(agent_bin "${a%%=*}")"; done
fi
