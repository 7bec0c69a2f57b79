#!/usr/bin/env bash
# Issue 48 on the GPU machine, in one call: the symmetry group's tabulated border test
# (this tree) against an earlier build (a second snapshot with its own .device-bin).
#   bash bench/device/nqueens_group_ab.sh BASELINE_DIR
# 1. the GPU skeletons' counts under the group against the cpu oracle (tests/gpu);
# 2. N-Queens 17-20 with the mirror (nqueens.toml) and the eight symmetries
#    (nqueens_symmetries.toml) on ivm, 17-19 on dfs (bench/nqueens_group_table_gpu.json);
# 3. the baseline's binaries on a few of the same (bench/nqueens_group_table_main_gpu.json);
# 4. N-Queens 21 once, with the spec and skeleton fastest at 20.
set -uo pipefail
here="$(pwd)"
base="$(cd "$1" && pwd)"
out="${OUT:-/tmp/permjit-out}"
mkdir -p "$out"
source bench/device/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv | tee "$out/device.txt"
echo "branch $(cat .device-bin/COMMIT | tr -d '\n'), baseline $(cat "$base/.device-bin/COMMIT" | tr -d '\n')" | tee -a "$out/device.txt"
timeout 150 permjit_gpu_tests "[nqueens_symmetries]" --durations yes > "$out/gpu-tests.log" 2>&1
echo "gpu tests rc=$?" | tee -a "$out/gpu-tests.log" | tee -a "$out/device.txt"
tail -4 "$out/gpu-tests.log"
python3 bench/run.py bench/nqueens_group_table_gpu.json --permjit "$(command -v permjit)" --out "$out/branch.jsonl" \
  > "$out/branch.log" 2>&1
(cd "$base" && source bench/device/env.sh && python3 bench/run.py "$here/bench/nqueens_group_table_main_gpu.json" \
  --permjit "$base/.device-bin/bin/permjit" --out "$out/baseline.jsonl") > "$out/baseline.log" 2>&1
python3 - "$out/branch.jsonl" > /tmp/q21.json <<'PY'
import json, statistics, sys
runs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in runs:
    if r.get("timed_out") or r["params"]["n"] != 20: continue
    by.setdefault((r["problem"], r["skeleton"]), []).append(r["time_s"]["search"])
(problem, skeleton), _ = min(by.items(), key=lambda kv: statistics.median(kv[1]))
print(json.dumps([{"spec": f"problems/{problem}.toml", "instance": "", "params": {"n": 21},
                   "args": ["--skeleton", skeleton], "repeat": 1, "timeout": 60}]))
PY
cat /tmp/q21.json
python3 bench/run.py /tmp/q21.json --permjit "$(command -v permjit)" --out "$out/q21.jsonl" > "$out/q21.log" 2>&1
# Medians per configuration (bench/summarize.py), a table per file.
for f in "$out"/branch.jsonl "$out"/baseline.jsonl "$out"/q21.jsonl; do
  if [ -s "$f" ]; then echo "${f##*/}"; python3 bench/summarize.py "$f"; fi
done
