#!/usr/bin/env bash
# The test command. Installs the third-party peers the tests talk to into a virtual
# environment under target/ (never into the system Python), then runs every test of the
# workspace and the doc tests, in the same profile as the README's first command, so the
# dependencies that command built are reused.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/venv
peers=(jevcompat==0.1.1)
stamp="$venv/.peers"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if [ "$(cat "$stamp" 2>/dev/null)" != "${peers[*]}" ]; then
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${peers[@]}"
  echo "${peers[*]}" > "$stamp"
fi
export PATH="$PWD/$venv/bin:$PATH"
if ! cargo nextest --version >/dev/null 2>&1; then
  cargo install --locked cargo-nextest
fi
cargo nextest run --workspace --no-fail-fast
cargo test --workspace --doc --quiet
