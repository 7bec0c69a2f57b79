#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried: how often the
# `ivm` explorers of heavy nodes (node code that solves an arborescence or assignment)
# look at the trigger, and the trigger itself. br17 at --ub 39 with the default bound
# (lb=4) and QAP nug15 (Gilmore-Lawler) at the poll periods P of $PERIODS (NVRTC
# option -DPJ_IVM_POLL_PERIOD=P, templates/gpu_ivm.cuh) and the triggers of $TRIGGERS
# (fractions of br17's explorers; "d" the default; nug15 at the default), three runs each after a compile; br17
# with the partial cost (lb=0) at the default beside them. JSON lines in
# $OUT/ivm-heavy-poll.jsonl.
set -uo pipefail
source bench/device/solve_log.sh
f="$OUT/ivm-heavy-poll.jsonl"
A=$I/atsp
Q=$I/qap
PERIODS="${PERIODS:-64 16 8 4 2}"
TRIGGERS="${TRIGGERS:-d}"
RUNS="${RUNS:-3}"
explorers=152064  # the H100's resident explorers with local rows (bench/results/2026-11-24-h100-called-bound.jsonl)
for p in $PERIODS; do
  for t in $TRIGGERS; do
    targs=()
    [[ $t != d ]] && targs=(--trigger "$(python3 -c "print(max(1, int($explorers * $t)))")")
    for r in $(seq "$RUNS"); do
      PERMJIT_NVRTC_OPTIONS="-DPJ_IVM_POLL_PERIOD=$p -DPJ_IVM_POLL_PERIOD_HEAVY=$p" log_solve "$f" run="$r" period="$p" trigger="$t" case=br17-lb4 -- \
        problems/atsp.toml -i $A/br17.atsp --skeleton ivm --ub 39 "${targs[@]}"
    done
  done
  for r in $(seq "$RUNS"); do
    PERMJIT_NVRTC_OPTIONS="-DPJ_IVM_POLL_PERIOD=$p -DPJ_IVM_POLL_PERIOD_HEAVY=$p" log_solve "$f" run="$r" period="$p" trigger=d case=nug15 -- \
      problems/qap.toml -i $Q/nug15.dat --skeleton ivm --ub 1150
  done
done
for r in $(seq "$RUNS"); do
  log_solve "$f" run="$r" period=64 trigger=d case=br17-lb0 -- problems/atsp.toml -i $A/br17.atsp --skeleton ivm --ub 39 --param lb=0
done
