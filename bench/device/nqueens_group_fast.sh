#!/usr/bin/env bash
# Issue 48 on the GPU machine, in one call of at most 300 s: the symmetry group's border
# test as one row of depths and one mask of last values at every level
# (templates/symmetry_border.h), against the mirror.
#   bash bench/device/nqueens_group_fast.sh
# 1. N-Queens 19 and 20 on ivm, mirror (nqueens.toml) and eight symmetries
#    (nqueens_symmetries.toml), 3 runs each (bench/nqueens_group_fast_gpu.json);
# 2. N-Queens 21 once with each;
# 3. N-Queens 22 with the eight when their 21 took at most 10.5 s (the bar: 10 s);
# 4. the GPU skeletons' counts under the group against the cpu oracle (tests/gpu), in
#    the time left.
# Each step runs under `timeout`; what a step did not finish is said in device.txt.
set -uo pipefail
out="${OUT:-/tmp/permjit-out}"
mkdir -p "$out"
source bench/device/env.sh
budget=295  # seconds for the whole script, the start of the steps included
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv | tee "$out/device.txt"
echo "commit $(tr -d '\n' < .device-bin/COMMIT)" | tee -a "$out/device.txt"
step() {  # name limit command...: runs the command under timeout, notes its status
  local name="$1" limit="$2"
  shift 2
  timeout "$limit" "$@"
  echo "$name rc=$? (limit ${limit} s, at ${SECONDS} s)" | tee -a "$out/device.txt"
}
permjit_bin="$(command -v permjit)"
step "n=19,20" 90 python3 bench/run.py bench/nqueens_group_fast_gpu.json --permjit "$permjit_bin" --out "$out/ab.jsonl" \
  > "$out/ab.log" 2>&1
cat > "$out/q21.json" <<'J'
[{"spec": "problems/nqueens_symmetries.toml", "instance": "", "params": {"n": 21}, "args": ["--skeleton", "ivm"], "repeat": 1, "timeout": 45},
 {"spec": "problems/nqueens.toml", "instance": "", "params": {"n": 21}, "args": ["--skeleton", "ivm"], "repeat": 1, "timeout": 40}]
J
step "n=21" 90 python3 bench/run.py "$out/q21.json" --permjit "$permjit_bin" --out "$out/q21.jsonl" > "$out/q21.log" 2>&1
q21=$(python3 -c "
import json
for l in open('$out/q21.jsonl'):
    r = json.loads(l)
    if r['problem'] == 'nqueens_symmetries' and not r.get('timed_out'): print(r['time_s']['search'])" 2>/dev/null)
echo "q21 eight: ${q21:-none}" | tee -a "$out/device.txt"
if [ -n "$q21" ] && python3 -c "import sys; sys.exit(0 if float('$q21') <= 10.5 else 1)"; then
  echo '[{"spec": "problems/nqueens_symmetries.toml", "instance": "", "params": {"n": 22}, "args": ["--skeleton", "ivm"], "repeat": 1, "timeout": 95}]' \
    > "$out/q22.json"
  step "n=22" 100 python3 bench/run.py "$out/q22.json" --permjit "$permjit_bin" --out "$out/q22.jsonl" > "$out/q22.log" 2>&1
fi
left=$((budget - SECONDS))
if [ "$left" -gt 20 ]; then
  step "gpu tests" "$left" permjit_gpu_tests "[nqueens_symmetries]" --durations yes > "$out/gpu-tests.log" 2>&1
  tail -4 "$out/gpu-tests.log"
else
  echo "gpu tests not run: ${left} s left" | tee -a "$out/device.txt"
fi
python3 - "$out"/ab.jsonl "$out"/q21.jsonl "$out"/q22.jsonl <<'PY'
import json, os, statistics, sys
for path in sys.argv[1:]:
    if not os.path.exists(path): continue
    by = {}
    for l in open(path):
        r = json.loads(l)
        if r.get("timed_out"):
            print(path.split("/")[-1], r["problem"], r["params"], r["skeleton"], "timed out"); continue
        by.setdefault((r["problem"], r["skeleton"], r["params"]["n"]), []).append(r)
    for (p, s, n), rs in by.items():
        t = [x["time_s"]["search"] for x in rs]
        print(path.split("/")[-1], rs[0]["commit"], p, s, n, "search", round(statistics.median(t), 3), [round(x, 3) for x in t],
              "solutions", rs[0]["solutions"], "evaluated", rs[0]["nodes"]["evaluated"],
              "compile", round(rs[0]["time_s"]["compile"], 2))
PY
