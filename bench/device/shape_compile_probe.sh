#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried: what one module
# per shape costs and saves with the flowshop defaults (ivm, two ends, --ub = optimum).
# For each configuration (data compiled in or read at run time; NVRTC with or without
# --split-compile), an empty module cache, then ta021-ta030 in order (with run-time data
# the first compiles and the nine others should be cache hits), then ta022, ta029 and
# ta030 twice more (warm: search medians). Then ATSP br17 and QAP nug12 (the other specs
# with instance data) cold and warm in each data mode. One JSON line per run in
# $OUT/shape-compile.jsonl (permjit's --json plus the configuration), a summary on stdout.
set -uo pipefail
source bench/device/env.sh
OUT="${OUT:-/tmp/permjit-out}"
mkdir -p "$OUT"
I=.device-bin/instances
commit=$(cat .device-bin/COMMIT 2>/dev/null || echo unknown)
log="$OUT/shape-compile.jsonl"
run() {  # config cache-dir pass spec instance ub [args...]
  local config=$1 cache=$2 pass=$3 spec=$4 inst=$5 ub=$6
  shift 6
  local line
  line=$(timeout 120 permjit solve "$spec" -i "$inst" --skeleton ivm --ub "$ub" --cache-dir "$cache" --json --quiet "$@") || {
    echo "$config $pass $inst: failed"
    return
  }
  python3 - "$line" "$config" "$pass" "$commit" <<'EOF' | tee -a "$log" | python3 -c '
import json, sys
r = json.loads(sys.stdin.read())
t, c = r["time_s"], r.get("compile_s", {})
print(r["config"], r["pass"], r["instance"].split("/")[-1], "nvrtc %.2f compile %.2f search %.3f hit %s evaluated %d" % (
    c.get("nvrtc", 0), t["compile"], t["search"], r["cache_hit"], r["nodes"]["evaluated"]))'
import json, sys
r = json.loads(sys.argv[1])
r.update(config=sys.argv[2], **{"pass": sys.argv[3]}, commit=sys.argv[4])
print(json.dumps(r))
EOF
}
nproc
for config in compiled run-time run-time-split compiled-split; do
  args=(--data "${config%-split}")
  unset PERMJIT_NVRTC_SPLIT
  [[ $config == *-split ]] && export PERMJIT_NVRTC_SPLIT=0
  cache=$(mktemp -d)
  for p in ta021:2297 ta022:2099 ta023:2326 ta024:2223 ta025:2291 ta026:2226 ta027:2273 ta028:2200 ta029:2237 ta030:2178; do
    run "$config" "$cache" first problems/flowshop.toml "$I/flowshop/${p%%:*}.txt" "${p##*:}" "${args[@]}"
  done
  for again in 2 3; do
    for p in ta022:2099 ta029:2237 ta030:2178; do
      run "$config" "$cache" "warm$again" problems/flowshop.toml "$I/flowshop/${p%%:*}.txt" "${p##*:}" "${args[@]}"
    done
  done
  rm -rf "$cache"
done
unset PERMJIT_NVRTC_SPLIT
for data in compiled run-time; do
  cache=$(mktemp -d)
  for pass in first warm2 warm3; do
    run "$data" "$cache" "$pass" problems/atsp.toml "$I/atsp/br17.atsp" 39 --data "$data"
    run "$data" "$cache" "$pass" problems/qap.toml "$I/qap/nug12.dat" 578 --data "$data"
  done
  rm -rf "$cache"
done
