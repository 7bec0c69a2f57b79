#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried: issue 15's first
# bar, repeated. The flowshop defaults (ivm, --ub = optimum) on ta021 N times, each with
# an empty module cache (NVRTC's libraries read once before, by a small emit), then ta022
# with the last cache (a hit). One JSON line per run in $OUT/cold-compile.jsonl. NVRTC
# may keep a cache of its own: only the first run of a unit on a machine is cold for it
# (docs/performance.md "One compile per shape").
#   bash bench/device/cold_compile_repeat.sh [N]   # default 5
set -uo pipefail
source bench/device/solve_log.sh
n=${1:-5}
permjit emit problems/nqueens.toml --param n=8 --skeleton ivm --stage ptx > /dev/null
for k in $(seq 1 "$n"); do
  cache=$(mktemp -d)
  log_solve "$OUT/cold-compile.jsonl" run="$k" -- problems/flowshop.toml -i "$I/flowshop/ta021.txt" --skeleton ivm \
    --ub 2297 --cache-dir "$cache"
  [[ $k == "$n" ]] && log_solve "$OUT/cold-compile.jsonl" run="$k" -- problems/flowshop.toml -i "$I/flowshop/ta022.txt" \
    --skeleton ivm --ub 2099 --cache-dir "$cache"
  rm -rf "$cache"
done
