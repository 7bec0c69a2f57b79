#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried: flowshop's
# defaults (ivm, two ends, --ub = optimum) with run-time data at unroll budgets 8192, 256
# (the default) and 0, with NVRTC on one host thread (PERMJIT_NVRTC_SPLIT=1) and on all
# (0, ivm's default): the cold compile on ta022, then ta022, ta029 and ta030 twice
# (cache hits). One JSON line per run in $OUT/run-time-budget.jsonl. (At b6b46e2, where
# the results of docs/performance.md were taken, run-time arrays were laid out by
# PERMJIT_RUN_TIME_ARRAYS=global and NVRTC used one thread unless told otherwise.)
set -uo pipefail
source bench/device/solve_log.sh
for config in 8192 256 0 8192-split 256-split 0-split; do
  export PERMJIT_UNROLL_BUDGET=${config%-split}
  export PERMJIT_NVRTC_SPLIT=1
  [[ $config == *-split ]] && export PERMJIT_NVRTC_SPLIT=0
  cache=$(mktemp -d)
  for pass in 1 2 3; do
    for p in ta022:2099 ta029:2237 ta030:2178; do
      [[ $pass == 1 && ${p%%:*} != ta022 ]] && continue
      log_solve "$OUT/run-time-budget.jsonl" config="budget $config" pass="$pass" -- problems/flowshop.toml \
        -i "$I/flowshop/${p%%:*}.txt" --skeleton ivm --ub "${p##*:}" --cache-dir "$cache"
    done
  done
  rm -rf "$cache"
done
