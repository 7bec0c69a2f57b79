#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried: compile and
# search time per data mode, cold and warm (issue 15's matrix). One JSON line per run in
# $OUT/compile-matrix.jsonl (permjit's --json plus "config" and "pass"), a line each on
# stdout.
#   flowshop defaults (ivm, two ends, --ub = optimum), --data run-time (the default) and
#     compiled: an empty module cache, then ta021-ta030 in order ("first": with run-time
#     data the first compiles and the nine others are cache hits), then ta022, ta029 and
#     ta030 twice more ("warm2", "warm3");
#   ATSP br17 (ivm, --ub 39) and QAP nug12 (ivm, --ub 578) in both data modes, cold then
#     warm twice;
#   N-Queens 17 (ivm) and Korf's first 15-puzzle (ida), which read no instance arrays,
#     with NVRTC on every host thread (the default) and on one (PERMJIT_NVRTC_SPLIT=1),
#     cold then warm twice.
#   bash bench/device/compile_matrix.sh            # all of it
#   bash bench/device/compile_matrix.sh flowshop   # one part: flowshop | assign | nodata
set -uo pipefail
source bench/device/env.sh
OUT="${OUT:-/tmp/permjit-out}"
mkdir -p "$OUT"
I=.device-bin/instances
commit=$(cat .device-bin/COMMIT 2>/dev/null || echo unknown)
log="$OUT/compile-matrix.jsonl"
run() {  # config cache-dir pass spec [args...]
  local config=$1 cache=$2 pass=$3 spec=$4
  shift 4
  local line
  line=$(timeout 120 permjit solve "$spec" --cache-dir "$cache" --json --quiet "$@") || {
    echo "$config $pass $spec $*: failed"
    return
  }
  python3 - "$line" "$config" "$pass" "$commit" <<'EOF' | tee -a "$log" | python3 -c '
import json, sys
r = json.loads(sys.stdin.read())
t, c = r["time_s"], r.get("compile_s", {})
what = (r.get("instance") or r["problem"]).split("/")[-1]
print(r["config"], r["pass"], what, "nvrtc %.2f compile %.2f search %.3f hit %s evaluated %d" % (
    c.get("nvrtc", 0), t["compile"], t["search"], r["cache_hit"], r["nodes"]["evaluated"]))'
import json, sys
r = json.loads(sys.argv[1])
r.update(config=sys.argv[2], **{"pass": sys.argv[3]}, commit=sys.argv[4])
print(json.dumps(r))
EOF
}
parts="${*:-flowshop assign nodata}"
nproc
# NVRTC's shared libraries read once before the first measured compile.
permjit emit problems/nqueens.toml --param n=8 --skeleton ivm --stage ptx > /dev/null
for part in $parts; do
  case $part in
    flowshop)
      for data in run-time compiled; do
        cache=$(mktemp -d)
        for p in ta021:2297 ta022:2099 ta023:2326 ta024:2223 ta025:2291 ta026:2226 ta027:2273 ta028:2200 ta029:2237 ta030:2178; do
          run "$data" "$cache" first problems/flowshop.toml -i "$I/flowshop/${p%%:*}.txt" --skeleton ivm --ub "${p##*:}" --data "$data"
        done
        for pass in warm2 warm3; do
          for p in ta022:2099 ta029:2237 ta030:2178; do
            run "$data" "$cache" "$pass" problems/flowshop.toml -i "$I/flowshop/${p%%:*}.txt" --skeleton ivm --ub "${p##*:}" --data "$data"
          done
        done
        rm -rf "$cache"
      done
      ;;
    assign)
      for data in run-time compiled; do
        cache=$(mktemp -d)
        for pass in cold warm2 warm3; do
          run "$data" "$cache" "$pass" problems/atsp.toml -i "$I/atsp/br17.atsp" --skeleton ivm --ub 39 --data "$data"
          run "$data" "$cache" "$pass" problems/qap.toml -i "$I/qap/nug12.dat" --skeleton ivm --ub 578 --data "$data"
        done
        rm -rf "$cache"
      done
      ;;
    nodata)
      for split in 0 1; do
        export PERMJIT_NVRTC_SPLIT=$split
        cache=$(mktemp -d)
        for pass in cold warm2 warm3; do
          run "split $split" "$cache" "$pass" problems/nqueens.toml --param n=17 --skeleton ivm
          run "split $split" "$cache" "$pass" problems/puzzle15.toml -i "$I/15puzzle/korf100.txt" --record 1 --skeleton ida
        done
        rm -rf "$cache"
      done
      unset PERMJIT_NVRTC_SPLIT
      ;;
    *) echo "compile_matrix.sh: unknown part '$part' (flowshop | assign | nodata)"; exit 2 ;;
  esac
done
