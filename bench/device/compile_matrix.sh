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
#     with PERMJIT_NVRTC_SPLIT=0 (NVRTC on every host thread) and 1 (one), cold then warm
#     twice.
# NVRTC may keep a cache of its own (docs/performance.md "One compile per shape"): a cold
# figure is one only for a unit it has not compiled on the machine before.
#   bash bench/device/compile_matrix.sh            # all of it
#   bash bench/device/compile_matrix.sh flowshop   # one part: flowshop | assign | nodata
set -uo pipefail
source bench/device/solve_log.sh
log="$OUT/compile-matrix.jsonl"
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
          log_solve "$log" config="$data" pass=first -- problems/flowshop.toml -i "$I/flowshop/${p%%:*}.txt" \
            --skeleton ivm --ub "${p##*:}" --data "$data" --cache-dir "$cache"
        done
        for pass in warm2 warm3; do
          for p in ta022:2099 ta029:2237 ta030:2178; do
            log_solve "$log" config="$data" pass="$pass" -- problems/flowshop.toml -i "$I/flowshop/${p%%:*}.txt" \
              --skeleton ivm --ub "${p##*:}" --data "$data" --cache-dir "$cache"
          done
        done
        rm -rf "$cache"
      done
      ;;
    assign)
      for data in run-time compiled; do
        cache=$(mktemp -d)
        for pass in cold warm2 warm3; do
          log_solve "$log" config="$data" pass="$pass" -- problems/atsp.toml -i "$I/atsp/br17.atsp" --skeleton ivm --ub 39 \
            --data "$data" --cache-dir "$cache"
          log_solve "$log" config="$data" pass="$pass" -- problems/qap.toml -i "$I/qap/nug12.dat" --skeleton ivm --ub 578 \
            --data "$data" --cache-dir "$cache"
        done
        rm -rf "$cache"
      done
      ;;
    nodata)
      for split in 0 1; do
        export PERMJIT_NVRTC_SPLIT=$split
        cache=$(mktemp -d)
        for pass in cold warm2 warm3; do
          log_solve "$log" config="split $split" pass="$pass" -- problems/nqueens.toml --param n=17 --skeleton ivm \
            --cache-dir "$cache"
          log_solve "$log" config="split $split" pass="$pass" -- problems/puzzle15.toml -i "$I/15puzzle/korf100.txt" \
            --record 1 --skeleton ida --cache-dir "$cache"
        done
        rm -rf "$cache"
      done
      unset PERMJIT_NVRTC_SPLIT
      ;;
    *) echo "compile_matrix.sh: unknown part '$part' (flowshop | assign | nodata)"; exit 2 ;;
  esac
done
