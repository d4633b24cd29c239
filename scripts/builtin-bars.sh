#!/usr/bin/env bash
# The builtin model's bars, from evidence: `decisions eval --provider builtin` on the held-out
# split (model/heldout.jsonl, the tools training held out), asked of the twin fitted without
# them, the answers the hook acts on (a score of 2.5 or more, a denial: --acts-at 2.5) recorded,
# each right when its command is level 3, then `decisions ledger propose` on that ledger. The act bar it
# proposes is written into crates/decisions/catalogs/permission.builtin.json (the shipped
# permission.json with "thresholds_for": "builtin"), the catalog `install` seeds for builtin;
# the reliability diagram goes to docs/builtin-reliability.svg, the evaluation to
# model/heldout-eval.txt, and the providers' descriptors, which name the model, to
# schemas/providers.json. Run after examples/builtin_train, with the binary built from it.
#
#   bash scripts/builtin-bars.sh [DECISIONS_BIN]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/$(rustc -vV | sed -n 's/^host: //p')/debug/decisions}
bin=$(realpath "$bin")
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/.leopold/decisions"
cp crates/decisions/catalogs/permission.json "$work/.leopold/decisions/permission.json"
heldout=$(sed -n 2p crates/decisions/src/builtin/model.txt)
# A binary built before the last training knows no twin of that name and would answer with the
# model it ships, fitted on the held-out rows too: checked before anything is written.
providers=$("$bin" providers)
shipped=$(python3 -c "import json, sys; print(json.load(sys.stdin)['providers']['builtin']['model'])" <<<"$providers")
if [ "$shipped" != "$(sed -n 1p crates/decisions/src/builtin/model.txt)" ]; then
  echo "error: $bin ships $shipped, not the model model.txt names: build it again after training" >&2
  exit 1
fi
printf '%s\n' "$providers" > schemas/providers.json
python3 -c "
import json, sys
d = json.load(sys.stdin)['providers']['builtin']
d['model'] = '$heldout'
json.dump({'version': 'decisions/1.0', 'provider': 'builtin', 'providers': {'builtin': d}}, open('$work/.leopold/decisions/config.json', 'w'))" <<<"$providers"
cd "$work"
"$bin" eval --catalog permission --question destructive --input "$root/model/heldout.jsonl" --record --acts-at 2.5 --no-log \
  --svg "$root/docs/builtin-reliability.svg" | tee "$root/model/heldout-eval.txt"
"$bin" ledger propose > proposal.json
cd "$root"
python3 - "$work/proposal.json" "$work/.leopold/decisions/ledger.jsonl" <<'PY'
import json, math, sys
text = open(sys.argv[1]).read()
proposals = [json.loads(l) for l in text.splitlines() if l.strip().startswith("{")] or [json.loads(text)]
p = next(p for p in proposals if p.get("provider") == "builtin" and p.get("question") == "destructive")
if p.get("status") != "proposed":
    sys.exit(f"no bar proposed: {p}")
# The bar, rounded down to the fewest decimals (three to six) that still admit no wrong decision
# the recorded evidence shows: the proposed bar is the certainty of the weakest right one, which
# rounding up would refuse. Only when the surest wrong one is closer than that, up to three.
rows = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
wrong = {r["id"] for r in rows if r.get("kind") == "outcome" and r.get("correct") is False}
worst = max((r["certainty"] for r in rows if r.get("kind") == "decision" and r["id"] in wrong), default=-1.0)
downs = (math.floor(p["act"] * 10**d + 1e-9) / 10**d for d in range(3, 7))
act = next((b for b in downs if b > worst), math.ceil(p["act"] * 1000 - 1e-9) / 1000)
catalog = json.load(open("crates/decisions/catalogs/permission.json"))
out = {"version": catalog["version"], "thresholds_for": "builtin", "questions": catalog["questions"],
       "thresholds": {"destructive": {"floor": min(0.5, act), "escalate": min(0.7, act), "act": act}}}
open("crates/decisions/catalogs/permission.builtin.json", "w").write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
print(f"act bar {act} from {p['samples']} held-out decisions ({p['reasoning']})")
PY
