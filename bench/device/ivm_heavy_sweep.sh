#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried: ATSP br17 at
# --ub 39 with the default bound on `ivm`, the heavy nodes' poll period ($PERIODS, NVRTC
# option -DPJ_IVM_POLL_PERIOD_HEAVY) against the number of explorers ($EXPLORERS, "d" as
# many as the device holds), and with the partial cost (lb=0) at the defaults beside
# them; $RUNS runs each after a compile. JSON lines in $OUT/ivm-heavy-sweep.jsonl.
set -uo pipefail
source bench/device/solve_log.sh
f="$OUT/ivm-heavy-sweep.jsonl"
A=$I/atsp
RUNS="${RUNS:-3}"
for p in ${PERIODS:-2 3 4 6}; do
  for x in ${EXPLORERS:-d 65536 32768}; do
    xargs=()
    [[ $x != d ]] && xargs=(--explorers "$x")
    for r in $(seq "$RUNS"); do
      PERMJIT_NVRTC_OPTIONS="-DPJ_IVM_POLL_PERIOD_HEAVY=$p" log_solve "$f" run="$r" period="$p" explorers="$x" case=br17-lb4 -- \
        problems/atsp.toml -i $A/br17.atsp --skeleton ivm --ub 39 "${xargs[@]}"
    done
  done
done
for x in ${EXPLORERS:-d 65536 32768}; do
  xargs=()
  [[ $x != d ]] && xargs=(--explorers "$x")
  for r in $(seq "$RUNS"); do
    log_solve "$f" run="$r" period=64 explorers="$x" case=br17-lb0 -- problems/atsp.toml -i $A/br17.atsp --skeleton ivm --ub 39 --param lb=0 "${xargs[@]}"
  done
done
