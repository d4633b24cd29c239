#!/usr/bin/env bash
# What `decisions mcp` (rmcp and the tokio runtime it runs on) adds to the build and the binary:
# the tree before the MCP server (BASE, default 3cff8c0) and this one, each built cold (an empty
# target directory; the crates already downloaded) in release and in debug, one after the other
# on this machine. Prints each build's wall time and the release binary's size, then the ratios.
#
#   bash bench/mcp_cost.sh [BASE]
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-3cff8c0}
work=$(mktemp -d)
trap 'git worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git worktree add --detach "$work/base" "$base" >/dev/null 2>&1
declare -A secs size
for tree in base head; do
  src=$PWD
  [[ $tree == base ]] && src="$work/base"
  for profile in release debug; do
    flag=()
    [[ $profile == release ]] && flag=(--release)
    t0=$(date +%s.%N)
    (cd "$src" && CARGO_TARGET_DIR="$work/target-$tree-$profile" cargo build -q "${flag[@]}" -p decisions-cli)
    t1=$(date +%s.%N)
    secs[$tree-$profile]=$(python3 -c "print(round($t1 - $t0, 1))")
    bin=$(find "$work/target-$tree-$profile" -path "*/$profile/decisions" -type f | head -1)
    size[$tree-$profile]=$(stat -c %s "$bin")
    echo "$tree ($([[ $tree == base ]] && echo "$base" || git rev-parse --short HEAD)) $profile: ${secs[$tree-$profile]} s cold, binary ${size[$tree-$profile]} bytes"
  done
done
python3 - "${secs[base-release]}" "${secs[head-release]}" "${secs[base-debug]}" "${secs[head-debug]}" \
  "${size[base-release]}" "${size[head-release]}" <<'PY'
import sys
br, hr, bd, hd, bs, hs = map(float, sys.argv[1:])
print(f"release build: {hr:.1f} s vs {br:.1f} s (x{hr / br:.2f}, +{hr - br:.1f} s)")
print(f"debug build:   {hd:.1f} s vs {bd:.1f} s (x{hd / bd:.2f}, +{hd - bd:.1f} s)")
print(f"release binary: {int(hs):,} vs {int(bs):,} bytes (+{int(hs - bs):,} bytes, x{hs / bs:.3f})")
PY
