#!/usr/bin/env bash
# On the GPU machine: the ivm explore kernels with their registers capped by the blocks
# per SM they must fit (PERMJIT_IVM_MIN_BLOCKS = none, 3, 4): two-ended flowshop with the
# defaults at the optimum (ta023, ta021, ta026, ta022, ta029) and N-Queens 19, one run each.
#   bash bench/device/ivm_min_blocks.sh OUT_DIR
set -uo pipefail
out="$1"
root="$(cd "$(dirname "$0")/../.." && pwd)"
inst="${PERMJIT_INSTANCES_DIR:-$root/../shared/instances}/flowshop"
permjit="$(command -v permjit)"
for blocks in 0 3 4; do
  export PERMJIT_IVM_MIN_BLOCKS=$blocks
  for pair in ta023:2326 ta021:2297 ta026:2226 ta022:2099 ta029:2237; do
    "$permjit" solve "$root/problems/flowshop.toml" --instance "$inst/${pair%%:*}.txt" --ub "${pair##*:}" --json \
      | python3 -c 'import json,sys; r=json.load(sys.stdin); r["min_blocks"]=int(sys.argv[1]); print(json.dumps(r))' "$blocks" \
      >>"$out/ivm-min-blocks.jsonl"
  done
  "$permjit" solve "$root/problems/nqueens.toml" --param n=19 --json \
    | python3 -c 'import json,sys; r=json.load(sys.stdin); r["min_blocks"]=int(sys.argv[1]); print(json.dumps(r))' "$blocks" \
    >>"$out/ivm-min-blocks.jsonl"
done
python3 - "$out/ivm-min-blocks.jsonl" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    print(r["min_blocks"], r["instance"].split("/")[-1] if r.get("instance") else "nqueens19", r["ivm"]["explorers"],
          r["nodes"]["expanded"], round(r["time_s"]["search"], 3), round(r["compile_s"]["nvrtc"], 2))
PY
