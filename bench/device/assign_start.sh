#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried: assign() started
# from the parent's (problem::AssignStart) against solved from scratch, in paired rounds
# of two builds: .device-bin/bin/permjit (this commit) and .device-bin/bin/permjit-base
# (a build of the commit before, stripped and copied there by hand; docs/measuring.md).
# ATSP ftv33/35/38 at their optima and from scratch, br17 with lb=1, on `ivm` and on the
# cpu backend's 16 threads. JSON lines in $OUT/assign-start.jsonl, labelled build=new|base.
# SHORT=1: only br17 lb=1 (ivm and cpu) and ftv33 at its optimum, then the [assign] GPU
# tests (not [slow]) into $OUT/gpu-tests-assign.log.
set -uo pipefail
source bench/device/solve_log.sh
f="$OUT/assign-start.jsonl"
A=$I/atsp
both() {  # both LABELS... -- SOLVE-ARGS...: the base build, then this one
  PERMJIT=permjit-base log_solve "$f" build=base "$@"
  log_solve "$f" build=new "$@"
}
if [ "${SHORT:-0}" = 1 ]; then
  for r in $(seq "${PAIRS:-2}"); do
    both run="$r" case=br17-lb1 -- problems/atsp.toml -i $A/br17.atsp --skeleton ivm --ub 39 --param lb=1
    both run="$r" case=br17-lb1-cpu16 -- problems/atsp.toml -i $A/br17.atsp --backend cpu --threads 16 --ub 39 --param lb=1
    both run="$r" case=ftv33-opt -- problems/atsp.toml -i $A/ftv33.atsp --skeleton ivm --ub 1286
  done
  (cd /tmp && permjit_gpu_tests "[assign]~[slow]" --durations yes 2>&1 | tee "$OUT/gpu-tests-assign.log" | tail -12)
  exit 0
fi
for r in $(seq "${PAIRS:-2}"); do
  both run="$r" case=br17-lb1 -- problems/atsp.toml -i $A/br17.atsp --skeleton ivm --ub 39 --param lb=1
  for t in ftv33:1286 ftv35:1473 ftv38:1530; do
    both run="$r" case="${t%%:*}-opt" -- problems/atsp.toml -i "$A/${t%%:*}.atsp" --skeleton ivm --ub "${t##*:}"
  done
done
for t in ftv33 ftv35 ftv38; do
  both run=1 case="$t-scratch" -- problems/atsp.toml -i "$A/$t.atsp" --skeleton ivm
  both run=1 case="$t-scratch-cpu16" -- problems/atsp.toml -i "$A/$t.atsp" --backend cpu --threads 16
done
