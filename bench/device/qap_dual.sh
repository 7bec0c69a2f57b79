#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried (issue 47): the
# dual-ascent bound (problems/qap.toml lb = 3, dualassign) against Gilmore-Lawler (lb = 2).
# First the GPU tests of dualassign (the device's value and tree against the cpu's) into
# $OUT/gpu-tests-dualassign.log; then nug12 and nug14 at their optima on `ivm` (one
# thread per node, tables in local memory) and on the cpu backend's 16 threads; then
# nug18 at its optimum on the cpu backend, stopped at $NUG18_LIMIT s (default 60). JSON
# lines in $OUT/qap-dual.jsonl. CASES, CPU16=0 (nug14 lb=3 alone on the cpu), SOLVE_LIMIT
# and GPU_TESTS_LIMIT shorten it. Run from a copy of the tree that holds .device-bin.
#
# `qap_dual.sh block`: the block-per-child bound on the offload skeleton instead (see
# the end of this file).
set -uo pipefail
source bench/device/solve_log.sh
if [ "${1:-}" = block ]; then
  source bench/device/qap_block.sh
  exit
fi
f="$OUT/qap-dual.jsonl"
Q=$I/qap
(cd /tmp && timeout "${GPU_TESTS_LIMIT:-170}" permjit_gpu_tests "[dualassign]" --durations yes 2>&1 | tee "$OUT/gpu-tests-dualassign.log" | tail -8)
export SOLVE_TIMEOUT=${SOLVE_LIMIT:-60}
for t in ${CASES:-nug12:578 nug14:1014}; do
  for lb in 2 3; do
    log_solve "$f" case="${t%%:*}-lb$lb-ivm" -- problems/qap.toml -i "$Q/${t%%:*}.dat" --skeleton ivm --ub "${t##*:}" --param lb=$lb
    [ "${CPU16:-1}" = 1 ] && log_solve "$f" case="${t%%:*}-lb$lb-cpu16" -- problems/qap.toml -i "$Q/${t%%:*}.dat" --backend cpu --threads 16 --ub "${t##*:}" --param lb=$lb
  done
done
[ "${CPU16:-1}" = 0 ] && log_solve "$f" case=nug14-lb3-cpu16 -- problems/qap.toml -i "$Q/nug14.dat" --backend cpu --threads 16 --ub 1014 --param lb=3
SOLVE_TIMEOUT=$(( ${NUG18_LIMIT:-60} + 30 )) log_solve "$f" case=nug18-lb3-cpu16-partial -- problems/qap.toml -i "$Q/nug18.dat" \
  --backend cpu --threads 16 --ub 1930 --param lb=3 --time-limit "${NUG18_LIMIT:-60}"
