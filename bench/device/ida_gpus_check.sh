#!/usr/bin/env bash
# `ida --gpus` on a GPU machine, from the repository root with .device-bin carried
# (bench/device/prepare.sh here): the GPU tests of `ida` (tests/gpu/ida_gpus_test.cpp and
# ida_differential_test.cpp: --gpus 0,0 everywhere, --gpus 2 where there are two GPUs),
# then Korf's 100 with the default tables on one GPU, four times (the first builds the
# tables into an emptied cache), the single-GPU bar of issue 46 (<= 0.5 s of search;
# the wait for a kernel changed), and on a machine with several GPUs twice more on all
# of them. At most 530 s (every step under `timeout`; usually 3-5 minutes).
#   bash bench/device/ida_gpus_check.sh
# Writes $OUT/gpu_tests.txt, $OUT/korf100.jsonl (every record, labelled) and
# $OUT/summary.txt.
set -uo pipefail
source bench/device/env.sh
OUT="${OUT:-/tmp/permjit-out}"
mkdir -p "$OUT"
gpus=$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)
echo "commit $(cat .device-bin/COMMIT), $gpus x $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" | tee "$OUT/summary.txt"
t0=$SECONDS
timeout 280 permjit_gpu_tests "[ida]" > "$OUT/gpu_tests.txt" 2>&1
echo "gpu tests [ida]: rc $?, $((SECONDS - t0)) s: $(grep -E 'passed|failed|skipped' "$OUT/gpu_tests.txt" | tail -2 | tr '\n' ' ')" | tee -a "$OUT/summary.txt"
grep -A3 "WARNING\|FAILED" "$OUT/gpu_tests.txt" | head -40 | tee -a "$OUT/summary.txt"
cache=/tmp/ida-check-cache
rm -rf "$cache"
K="$PERMJIT_INSTANCES_DIR/15puzzle/korf100.txt"
: > "$OUT/korf100.jsonl"
korf() {  # korf LABEL TIMEOUT ARGS...
  local label=$1 limit=$2
  shift 2
  local t=$SECONDS
  timeout "$limit" permjit solve problems/puzzle15.toml -i "$K" --records 1-100 --skeleton ida --json --quiet \
    --cache-dir "$cache" "$@" > "$OUT/last.jsonl" 2> "$OUT/last.err"
  local rc=$?
  python3 - "$label" "$OUT/last.jsonl" "$PERMJIT_INSTANCES_DIR/15puzzle/korf100_optimal.txt" "$OUT/korf100.jsonl" "$rc" "$((SECONDS - t))" <<'PY' | tee -a "$OUT/summary.txt"
import json, sys
label, path, opt_path, dest, rc, wall = sys.argv[1:7]
rows = [json.loads(l) for l in open(path) if l.startswith("{")]
opt = [int(x) for x in open(opt_path).read().split()]
recs = [r for r in rows if "summary" not in r]
with open(dest, "a") as f:
    for r in rows:
        f.write(json.dumps({"run": label, **r}) + "\n")
ok = len(recs) == 100 and all(r["cost"] == opt[r["record"] - 1] and len(r["path"]) == opt[r["record"] - 1] for r in recs)
s = lambda k: sum(r["time_s"][k] for r in recs)
summ = next((r["summary"] for r in rows if "summary" in r), {})
print(f"{label}: rc {rc}, wall {wall} s, {len(recs)} records, all optimal: {ok}, search {s('search'):.3f} s "
      f"(kernels {s('kernels'):.3f}, host {s('host'):.3f}), expanded {sum(r['nodes']['expanded'] for r in recs)}, "
      f"tables {json.dumps(summ.get('pattern_databases'))}, device {recs[0]['device'] if recs else None}")
PY
  tail -c 300 "$OUT/last.err"
}
korf build 100
for k in 1 2 3; do korf one-gpu-$k 30; done
if [ "$gpus" -gt 1 ]; then
  for k in 1 2; do korf all-gpus-$k 30 --gpus all; done
fi
echo "done in $((SECONDS - t0)) s" | tee -a "$OUT/summary.txt"
