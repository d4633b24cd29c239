#!/usr/bin/env bash
# Time the README's two set-up commands, word for word, on a clean clone of this repository
# with an empty cargo cache (every crate is downloaded and built again), as a newcomer meets
# them, with no cargo-nextest on PATH. Prints one line a command and the total. Usage:
# bash scripts/setup-time.sh [REVISION] (a revision times that commit's README commands
# instead, as a baseline).
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git clone -q "$src" "$work/repo"
if [ -n "${1:-}" ]; then git -C "$work/repo" checkout -q "$1"; fi
export CARGO_HOME="$work/cargo"
export PATH="$HOME/.cargo/bin:$PATH" # rustup's cargo
# A fresh machine has no cargo-nextest: one that says it is not there stands first on PATH
# (SETUP_TIME_NEXTEST=1 keeps the installed one).
if [ "${SETUP_TIME_NEXTEST:-0}" != 1 ]; then
  mkdir -p "$work/bin"
  printf '#!/bin/sh\necho "cargo-nextest: not installed" >&2\nexit 101\n' > "$work/bin/cargo-nextest"
  chmod +x "$work/bin/cargo-nextest"
  export PATH="$work/bin:$PATH"
fi
cd "$work/repo"
mapfile -t cmds < <(awk '/^```sh$/ {inside=1; next} inside && /^```$/ {exit} inside {print}' README.md)
total=0
for cmd in "${cmds[@]}"; do
  start=$(date +%s%N)
  if ! bash -c "$cmd" >"$work/out.log" 2>&1; then
    # The whole log outlives the clone, and the lines that name what failed are printed.
    mkdir -p "$src/target"
    cp "$work/out.log" "$src/target/setup-time-failed.log"
    grep -nE 'panicked|FAILED|^failures:|^    [a-z_:]+$|error(\[|:)' "$work/out.log" | head -40
    tail -20 "$work/out.log"
    echo "FAILED: $cmd (the whole log: target/setup-time-failed.log)"
    exit 1
  fi
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  total=$(( total + ms ))
  awk -v ms="$ms" -v cmd="$cmd" 'BEGIN { printf "%7.1f s  %s\n", ms / 1000, cmd }'
done
awk -v ms="$total" -v cores="$(nproc)" 'BEGIN { printf "%7.1f s  total (%s cores)\n", ms / 1000, cores }'
