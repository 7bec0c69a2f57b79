#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried: the search time
# of flowshop's defaults (ivm, two ends, --ub = optimum) on ta022, ta029 and ta030 with
# the run-time arrays in global memory (the default) and in constant memory
# (PERMJIT_RUN_TIME_ARRAYS=constant), and with the data compiled in. Each: a compile,
# then two runs per instance. (At b09cb4c the script also measured the run-time arrays
# stored as ints in constant memory, since removed: slower than both.)
set -uo pipefail
source bench/device/env.sh
OUT="${OUT:-/tmp/permjit-out}"
mkdir -p "$OUT"
I=.device-bin/instances/flowshop
commit=$(cat .device-bin/COMMIT 2>/dev/null || echo unknown)
for config in global constant compiled; do
  cache=$(mktemp -d)
  data=run-time
  unset PERMJIT_RUN_TIME_ARRAYS
  case $config in
    constant) export PERMJIT_RUN_TIME_ARRAYS=constant ;;
    compiled) data=compiled ;;
  esac
  for pass in 1 2; do
    for p in ta022:2099 ta029:2237 ta030:2178; do
      i=${p%%:*}
      timeout 60 permjit solve problems/flowshop.toml -i $I/$i.txt --skeleton ivm --data $data --ub ${p##*:} \
        --cache-dir "$cache" --json --quiet > "$OUT/last.json"
      python3 - "$OUT/last.json" "$config" "$pass" "$commit" <<'PY' | tee -a "$OUT/run-time-arrays.jsonl" | python3 -c '
import json, sys
r = json.loads(sys.stdin.read())
print(r["config"], r["pass"], r["instance"].split("/")[-1], "nvrtc %.2f search %.3f evaluated %d" % (
    r["compile_s"]["nvrtc"], r["time_s"]["search"], r["nodes"]["evaluated"]))'
import json, sys
r = json.load(open(sys.argv[1]))
r.update(config=sys.argv[2], **{"pass": sys.argv[3]}, commit=sys.argv[4])
print(json.dumps(r))
PY
    done
  done
  rm -rf "$cache"
done
rm -f "$OUT/last.json"
