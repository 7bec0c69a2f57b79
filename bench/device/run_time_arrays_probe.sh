#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried: the search time
# of flowshop's defaults (ivm, two ends, --ub = optimum) on ta022, ta029 and ta030 with
# the run-time arrays in global memory (the default) and in constant memory
# (PERMJIT_RUN_TIME_ARRAYS=constant), and with the data compiled in. Each: a compile,
# then two runs per instance. One JSON line per run in $OUT/run-time-arrays.jsonl. (At
# b09cb4c the script also measured the run-time arrays stored as ints in constant
# memory, since removed: slower than both.)
set -uo pipefail
source bench/device/solve_log.sh
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
      log_solve "$OUT/run-time-arrays.jsonl" config="$config" pass="$pass" -- problems/flowshop.toml \
        -i "$I/flowshop/${p%%:*}.txt" --skeleton ivm --data "$data" --ub "${p##*:}" --cache-dir "$cache"
    done
  done
  rm -rf "$cache"
done
