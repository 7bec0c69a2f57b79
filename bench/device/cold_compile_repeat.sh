#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried: issue 15's first
# bar, repeated. The flowshop defaults (ivm, --ub = optimum) on ta021 N times, each with
# an empty module cache (NVRTC's libraries read once before, by a small emit), then ta022
# with the last cache (a hit). One JSON line per run in $OUT/cold-compile.jsonl.
#   bash bench/device/cold_compile_repeat.sh [N]   # default 5
set -uo pipefail
source bench/device/env.sh
OUT="${OUT:-/tmp/permjit-out}"
mkdir -p "$OUT"
I=.device-bin/instances/flowshop
commit=$(cat .device-bin/COMMIT 2>/dev/null || echo unknown)
n=${1:-5}
permjit emit problems/nqueens.toml --param n=8 --skeleton ivm --stage ptx > /dev/null
for k in $(seq 1 "$n"); do
  cache=$(mktemp -d)
  for p in ta021:2297 ta022:2099; do
    [[ $k != "$n" && ${p%%:*} == ta022 ]] && continue
    line=$(permjit solve problems/flowshop.toml -i $I/${p%%:*}.txt --skeleton ivm --ub ${p##*:} --cache-dir "$cache" --json --quiet) || continue
    python3 - "$line" "$k" "$commit" <<'PY' | tee -a "$OUT/cold-compile.jsonl" | python3 -c '
import json, sys
r = json.loads(sys.stdin.read())
print(r["run"], r["instance"].split("/")[-1], "nvrtc %.2f compile %.2f search %.3f hit %s" % (
    r["compile_s"]["nvrtc"], r["time_s"]["compile"], r["time_s"]["search"], r["cache_hit"]))'
import json, sys
r = json.loads(sys.argv[1])
r.update(run=int(sys.argv[2]), commit=sys.argv[3])
print(json.dumps(r))
PY
  done
  rm -rf "$cache"
done
