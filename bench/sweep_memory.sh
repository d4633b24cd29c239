#!/usr/bin/env bash
# Before and after for the sweep's memory and time items, both binaries built here in release:
# the baseline from a git revision (default 4dbf7fa, before the sweep), in a worktree under
# target/, and the working tree's. Each measure is one run of each binary under /usr/bin/time
# (peak RSS, wall time); the machine is noisy, so read the ratios.
#
#   bash bench/sweep_memory.sh [--baseline-rev REV]
#
# - a 200 MB Decision Card: `card validate` and `card record-answer` (peak RSS, bytes of stderr);
# - eval over 1,000,000 invalid lines (peak RSS; no line is asked: the provider is a closed port);
# - watch's first snapshot over a 1,000,000-row calibration ledger (wall time, peak RSS);
# - the size of each release binary.
set -euo pipefail
cd "$(dirname "$0")/.."
rev=4dbf7fa
[[ "${1:-}" == "--baseline-rev" ]] && rev=$2
host=$(rustc -vV | sed -n 's/^host: //p')
base_src=target/baseline-src
if [[ ! -d $base_src ]]; then git worktree add --detach "$base_src" "$rev" >/dev/null; fi
git -C "$base_src" checkout -q --detach "$rev"
(cd "$base_src" && cargo build -q --release -p decisions-cli --target-dir ../baseline-target)
cargo build -q --release -p decisions-cli
base=$PWD/target/baseline-target/$host/release/decisions
now=$PWD/target/$host/release/decisions
printf 'release binary: %s %d bytes, now %d bytes\n' "$rev" "$(stat -c %s "$base")" "$(stat -c %s "$now")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/p/.leopold/decisions" && git -C "$work/p" init -q
python3 - "$work" <<'PY'
import json, sys
w = sys.argv[1]
huge = "x" * (200 << 20)
card = {"question": "q", "options": [{"id": huge, "label": "a", "consequence": "c"},
        {"id": "b", "label": "b", "consequence": "c"}], "recommendation": huge, "confidence": huge,
        "impact": "i", "impact_score": 5, "diff_summary": "d"}
json.dump(card, open(f"{w}/card.json", "w"))
with open(f"{w}/invalid.jsonl", "w") as f:
    for i in range(1_000_000):
        f.write('{"nostate": %d}\n' % i)
jev = {"name": "jev", "endpoint": "http://127.0.0.1:9/v1/systemone", "model": "jev-1.13.0", "calibrated": True,
       "calibration_source": "trained", "auth_env": "TYPESAFE_API_KEY", "timeout_ms": 2000, "max_options": 255,
       "max_state_tokens": 32000}
json.dump({"version": "decisions/1.0", "provider": "jev", "providers": {"jev": jev}}, open(f"{w}/p/.leopold/decisions/config.json", "w"))
json.dump({"version": "decisions/1.0", "questions": {"ok": {"type": "noul", "instructions": "Fine?"}},
           "thresholds": {"ok": {"floor": 0.5, "escalate": 0.65, "act": 0.85}}}, open(f"{w}/p/.leopold/decisions/ok.json", "w"))
with open(f"{w}/p/.leopold/decisions/ledger.jsonl", "w") as f:
    for i in range(500_000):
        f.write(json.dumps({"kind": "decision", "id": f"d{i}", "ts": "2026-11-30T10:00:00Z", "consumer": "routing",
            "provider": "jev", "model": "jev-1.13.0", "question": "effort", "certainty": 0.9, "band": "act", "acted": True}) + "\n")
        f.write(json.dumps({"kind": "outcome", "id": f"d{i}", "ts": "2026-11-30T11:00:00Z", "correct": i % 3 != 0}) + "\n")
with open(f"{w}/p/.leopold/events.jsonl", "w") as f:
    f.write(json.dumps({"ts": "2026-11-30T10:00:00Z", "consumer": "routing", "event": "route_decided",
        "effort": "low", "critical": False, "decided_by": "classifier"}) + "\n")
PY
measure() { # measure LABEL BIN ARGS...: peak RSS (MB), wall (s), bytes of stderr
  local label=$1 bin=$2; shift 2
  local t="$work/time" err="$work/err"
  ( cd "$work/p" && TYPESAFE_API_KEY=bench-key /usr/bin/time -f '%M %e' -o "$t" "$bin" "$@" >/dev/null 2>"$err" ) || true
  read -r kb secs < <(tail -n 1 "$t")
  [[ -n "${SHOW_ERR:-}" ]] && head -c 300 "$err" >&2 && echo >&2
  printf '  %-9s %8.1f MB %7.2f s %10d bytes of stderr\n' "$label" "$(echo "$kb / 1024" | bc -l)" "$secs" "$(stat -c %s "$err")"
}
for case in "card validate:card validate ../card.json" \
            "card record-answer:card record-answer ../card.json --answer a --why w --project p" \
            "eval, 1M invalid lines:eval --catalog ok --question ok --input ../invalid.jsonl --no-log" \
            "watch, 1M-row ledger:watch --once --json"; do
  echo "${case%%:*}"
  read -r -a args <<<"${case#*:}"
  measure "$rev" "$base" "${args[@]}"
  measure "now" "$now" "${args[@]}"
done
