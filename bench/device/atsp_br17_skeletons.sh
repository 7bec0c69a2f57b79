#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried: br17 at --ub 39
# on the GPU skeletons dfs, ivm and cdp and on the cpu skeleton with the host's threads,
# with atsp.toml's default bound (the arborescence, for br17) and with the partial cost
# (lb=0), three runs each. JSON lines in $OUT/atsp-br17-skeletons.jsonl.
set -uo pipefail
source bench/device/solve_log.sh
f="$OUT/atsp-br17-skeletons.jsonl"
for lb in 4 0; do
  for s in dfs ivm cdp cpu; do
    for r in 1 2 3; do
      log_solve "$f" run="$r" lb="$lb" skeleton="$s" -- problems/atsp.toml -i $I/atsp/br17.atsp --skeleton "$s" \
        --ub 39 --param lb="$lb"
    done
  done
done
