#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried: the `ivm`
# steal (one end) at a node boundary (steal_row, the default) against the seed's
# interval halving (steal_half, NVRTC option -DPJ_IVM_STEAL_HALF), and the poll period
# (-DPJ_IVM_POLL_PERIOD) of heavy nodes: br17 at --ub 39 with the default bound and with
# the partial cost (lb=0), QAP nug15 and tai12a at their optima, N-Queens 17. $RUNS runs
# each after a compile. JSON lines in $OUT/ivm-steal.jsonl.
set -uo pipefail
source bench/device/solve_log.sh
f="$OUT/ivm-steal.jsonl"
A=$I/atsp
Q=$I/qap
RUNS="${RUNS:-3}"
probe() {  # probe CASE PERIODS -- SOLVE-ARGS
  local case=$1 periods=$2
  shift 3
  for p in $periods; do
    for steal in row half; do
      local opts="-DPJ_IVM_POLL_PERIOD=$p -DPJ_IVM_POLL_PERIOD_HEAVY=$p"
      [[ $steal == half ]] && opts+=" -DPJ_IVM_STEAL_HALF"
      for r in $(seq "$RUNS"); do
        PERMJIT_NVRTC_OPTIONS="$opts" log_solve "$f" run="$r" steal="$steal" period="$p" case="$case" -- "$@" --skeleton ivm
      done
    done
  done
}
probe br17-lb4 "${BR17_PERIODS:-64 16 8 4}" -- problems/atsp.toml -i $A/br17.atsp --ub 39
probe nug15 "${QAP_PERIODS:-64 16 8}" -- problems/qap.toml -i $Q/nug15.dat --ub 1150
probe tai12a "${QAP_PERIODS:-64 16 8}" -- problems/qap.toml -i $Q/tai12a.dat --ub 224416
probe br17-lb0 64 -- problems/atsp.toml -i $A/br17.atsp --ub 39 --param lb=0
probe nqueens17 64 -- problems/nqueens.toml --param n=17
