#!/usr/bin/env bash
# Issue 48 on the GPU machine, in one call: the symmetry group's border code kept in the
# free word of ivm's stack rows (rows of 16 bytes, as the mirror's), against the mirror.
#   bash bench/device/nqueens_group16.sh
# 1. N-Queens 19 and 20 on ivm, mirror (nqueens.toml) and eight symmetries
#    (nqueens_symmetries.toml), 3 runs each (bench/nqueens_group16_gpu.json);
# 2. the GPU skeletons' counts under the group against the cpu oracle (tests/gpu);
# 3. N-Queens 21 once with each; N-Queens 22 with the eight when their 21 took at most 10.5 s (the bar: 10 s).
set -uo pipefail
out="${OUT:-/tmp/permjit-out}"
mkdir -p "$out"
source bench/device/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv | tee "$out/device.txt"
echo "commit $(tr -d '\n' < .device-bin/COMMIT)" | tee -a "$out/device.txt"
python3 bench/run.py bench/nqueens_group16_gpu.json --permjit "$(command -v permjit)" --out "$out/ab.jsonl" \
  > "$out/ab.log" 2>&1
timeout 120 permjit_gpu_tests "[nqueens_symmetries]" --durations yes > "$out/gpu-tests.log" 2>&1
echo "gpu tests rc=$?" | tee -a "$out/gpu-tests.log" | tee -a "$out/device.txt"
tail -4 "$out/gpu-tests.log"
cat > /tmp/q21.json <<'J'
[{"spec": "problems/nqueens_symmetries.toml", "instance": "", "params": {"n": 21}, "args": ["--skeleton", "ivm"], "repeat": 1, "timeout": 60},
 {"spec": "problems/nqueens.toml", "instance": "", "params": {"n": 21}, "args": ["--skeleton", "ivm"], "repeat": 1, "timeout": 45}]
J
python3 bench/run.py /tmp/q21.json --permjit "$(command -v permjit)" --out "$out/q21.jsonl" > "$out/q21.log" 2>&1
q21=$(python3 -c "
import json, sys
for l in open('$out/q21.jsonl'):
    r = json.loads(l)
    if r['problem'] == 'nqueens_symmetries' and not r.get('timed_out'): print(r['time_s']['search'])")
echo "q21 eight: ${q21:-none}"
if [ -n "$q21" ] && python3 -c "import sys; sys.exit(0 if float('$q21') <= 10.5 else 1)"; then
  echo '[{"spec": "problems/nqueens_symmetries.toml", "instance": "", "params": {"n": 22}, "args": ["--skeleton", "ivm"], "repeat": 1, "timeout": 100}]' > /tmp/q22.json
  python3 bench/run.py /tmp/q22.json --permjit "$(command -v permjit)" --out "$out/q22.jsonl" > "$out/q22.log" 2>&1
fi
# Medians per configuration (bench/summarize.py), a table per file.
for f in "$out"/ab.jsonl "$out"/q21.jsonl "$out"/q22.jsonl; do
  if [ -s "$f" ]; then echo "${f##*/}"; python3 bench/summarize.py "$f"; fi
done
