#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried: flowshop with
# two ends and lb=3 (ivm, --ub = optimum) with the data read at run time, one module
# cache per unroll budget (0, 512, the default 8192): the first instance compiles, the
# other three are cache hits. Prints one line per run; the JSON goes to $OUT.
set -uo pipefail
source bench/device/env.sh
OUT="${OUT:-/tmp/permjit-out}"
mkdir -p "$OUT"
I=.device-bin/instances/flowshop
for b in 0 512 8192; do
  cache=$(mktemp -d)
  for p in ta022:2099 ta029:2237 ta030:2178 ta021:2297; do
    i=${p%%:*}; u=${p##*:}
    PERMJIT_UNROLL_BUDGET=$b timeout 60 permjit solve problems/flowshop.toml -i $I/$i.txt -p branching=2 -p lb=3 --skeleton ivm --data run-time --ub $u --cache-dir $cache --json --quiet > "$OUT/b$b-$i.json"
    python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(sys.argv[2], sys.argv[3], 'search %.3f nvrtc %.2f compile %.2f hit %s' % (r['time_s']['search'], r['compile_s']['nvrtc'], r['time_s']['compile'], r['cache_hit']), r['nodes'])" "$OUT/b$b-$i.json" $b $i
  done
rm -rf "$cache"
done
