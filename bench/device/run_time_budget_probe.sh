#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried: flowshop's
# defaults (ivm, two ends, --ub = optimum) with run-time data in global memory
# (PERMJIT_RUN_TIME_ARRAYS=global) at unroll budgets 0, 256 and the default 8192, with
# NVRTC --split-compile=0 and without: the cold compile on ta022, then ta022, ta029 and
# ta030 twice (cache hits). One JSON line per run in $OUT/run-time-budget.jsonl.
set -uo pipefail
source bench/device/env.sh
OUT="${OUT:-/tmp/permjit-out}"
mkdir -p "$OUT"
I=.device-bin/instances/flowshop
commit=$(cat .device-bin/COMMIT 2>/dev/null || echo unknown)
export PERMJIT_RUN_TIME_ARRAYS=global
for config in 8192 256 0 8192-split 256-split 0-split; do
  export PERMJIT_UNROLL_BUDGET=${config%-split}
  unset PERMJIT_NVRTC_SPLIT
  [[ $config == *-split ]] && export PERMJIT_NVRTC_SPLIT=0
  cache=$(mktemp -d)
  for pass in 1 2 3; do
    for p in ta022:2099 ta029:2237 ta030:2178; do
      [[ $pass == 1 && ${p%%:*} != ta022 ]] && continue
      line=$(timeout 60 permjit solve problems/flowshop.toml -i $I/${p%%:*}.txt --skeleton ivm --data run-time --ub ${p##*:} \
        --cache-dir "$cache" --json --quiet) || { echo "$config $p failed"; continue; }
      python3 - "$line" "$config" "$pass" "$commit" <<'PY' | tee -a "$OUT/run-time-budget.jsonl" | python3 -c '
import json, sys
r = json.loads(sys.stdin.read())
print(r["config"], r["pass"], r["instance"].split("/")[-1], "nvrtc %.2f search %.3f evaluated %d" % (
    r["compile_s"]["nvrtc"], r["time_s"]["search"], r["nodes"]["evaluated"]))'
import json, sys
r = json.loads(sys.argv[1])
r.update(config="global, budget " + sys.argv[2], **{"pass": sys.argv[3]}, commit=sys.argv[4])
print(json.dumps(r))
PY
    done
  done
  rm -rf "$cache"
done
