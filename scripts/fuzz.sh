#!/usr/bin/env bash
# Run every fuzz target for SECONDS each (default 60): `bash scripts/fuzz.sh [SECONDS]`.
# cargo-fuzz on the stable toolchain, without a sanitizer (stable rustc has none; a panic or an
# abort is still a finding). Each corpus starts from the committed seeds and the shipped
# catalogs; a crash is written to crates/decisions/fuzz/artifacts/<target>/.
set -euo pipefail
cd "$(dirname "$0")/../crates/decisions"
secs="${1:-60}"
command -v cargo-fuzz >/dev/null 2>&1 || cargo install --locked cargo-fuzz
status=0
for target in catalog config systemone chat hook_input; do
  mkdir -p "fuzz/corpus/$target"
  if [ "$target" = catalog ]; then cp ../../templates/decisions/*.json fuzz/corpus/catalog/; fi
  if [ -d "fuzz/seeds/$target" ]; then cp fuzz/seeds/"$target"/* "fuzz/corpus/$target/"; fi
  log="fuzz/$target.log"
  if cargo fuzz run -s none "$target" "fuzz/corpus/$target" -- -max_total_time="$secs" >"$log" 2>&1; then
    echo "$target: $(grep -E '^Done' "$log" | tail -1)"
  else
    echo "$target: FOUND A CRASH"; grep -E 'panicked|SUMMARY|Test unit written' "$log" || tail -20 "$log"; status=1
  fi
done
exit "$status"
