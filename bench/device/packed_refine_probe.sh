#!/usr/bin/env bash
# On the GPU machine: does the refinement wait on its table reads? Flowshop defaults at
# the optimum with problems/flowshop.toml beside bench/flowshop_packed_refine.toml (LB2's
# four constant loads per job and pair packed into two), ta023, ta021, ta026, ta029, one
# run each, alternating; one JSON line per run in OUT_DIR/packed-refine.jsonl.
#   bash bench/device/packed_refine_probe.sh OUT_DIR
set -uo pipefail
out="$1"
root="$(cd "$(dirname "$0")/../.." && pwd)"
inst="${PERMJIT_INSTANCES_DIR:-$root/../shared/instances}/flowshop"
for pair in ta023:2326 ta021:2297 ta026:2226 ta029:2237; do
  for spec in problems/flowshop.toml bench/flowshop_packed_refine.toml; do
    permjit solve "$root/$spec" --instance "$inst/${pair%%:*}.txt" --ub "${pair##*:}" --json >>"$out/packed-refine.jsonl"
  done
done
python3 - "$out/packed-refine.jsonl" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    print(r["spec"].split("/")[-1], r["instance"].split("/")[-1], r["nodes"]["expanded"], r["nodes"]["evaluated"],
          round(r["time_s"]["search"], 3), round(r["compile_s"]["nvrtc"], 2))
PY
