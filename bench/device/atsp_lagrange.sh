#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried (issue 45): the
# GPU differential tests of the additive and Lagrangian bounds (lb = 5, 6 against the
# cpu oracle), then every TSPLIB ATSP of ../shared/instances/atsp up to 64 cities from
# scratch with atsp.toml's default on `ivm` ($ATSP_INSTANCES: NAME or NAME:LB; by default
# each instance with lb = 8, the root's multipliers, then br17 and ftv38 with lb = 7 as
# the baseline of the same call), each stopped after $ATSP_LIMIT s (default 15, the
# compile included; a line with "finished": false says so). $ATSP_GPU_TESTS: the
# Catch filter of the GPU tests (default "[lagrange]").
# JSON lines in $OUT/atsp-lagrange.jsonl; the tests' output in $OUT/gpu-tests.log.
set -uo pipefail
source bench/device/solve_log.sh
f="$OUT/atsp-lagrange.jsonl"
limit="${ATSP_LIMIT:-15}"
if [[ -z "${ATSP_SKIP_TESTS:-}" ]]; then
  timeout "${ATSP_TEST_LIMIT:-150}" permjit_gpu_tests "${ATSP_GPU_TESTS:-[lagrange]}" > "$OUT/gpu-tests.log" 2>&1
  echo "gpu tests [lagrange] exit $?"; tail -3 "$OUT/gpu-tests.log"
fi
# NAME or NAME:LB (a bound other than the default).
for item in ${ATSP_INSTANCES:-br17:8 ftv33:8 ftv35:8 ftv38:8 p43:8 ry48p:8 ft53:8 ftv55:8 br17:7 ftv38:7}; do
  i=${item%%:*} lb=${item#*:}
  [[ $lb == "$item" ]] && lb=
  before=$(cat "$f" 2>/dev/null | wc -l)
  SOLVE_TIMEOUT="$limit" log_solve "$f" bound="${lb:-default}" limit_s="$limit" -- problems/atsp.toml \
    -i "$I/atsp/$i.atsp" --skeleton ivm ${lb:+--param lb=$lb}
  # Stopped at the limit: a line that says so, with no figures.
  [[ $(cat "$f" 2>/dev/null | wc -l) -gt $before ]] ||
    echo "{\"instance\": \"$i\", \"finished\": false, \"limit_s\": $limit, \"bound\": \"${lb:-default}\", \"commit\": \"$commit\"}" >> "$f"
done
