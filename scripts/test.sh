#!/usr/bin/env bash
# The test command: installs the third-party System One peer the tests run against
# (jevcompat, from PyPI) when it is missing, then runs every test of the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v jevcompat >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check 'jevcompat==0.1.1'
fi
if ! cargo nextest --version >/dev/null 2>&1; then
  cargo install --locked cargo-nextest
fi
cargo nextest run --workspace --no-fail-fast
cargo test --workspace --doc --quiet
