#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried (issue 45): the
# GPU differential tests of the additive and Lagrangian bounds (lb = 5, 6 against the
# cpu oracle), then every TSPLIB ATSP of ../shared/instances/atsp up to 64 cities from
# scratch with atsp.toml's default (lb = 7) on `ivm` ($ATSP_INSTANCES: NAME or NAME:LB),
# each stopped after $ATSP_LIMIT s (default 15, the compile included; a line with
# "finished": false says so).
# JSON lines in $OUT/atsp-lagrange.jsonl; the tests' output in $OUT/gpu-tests.log.
set -uo pipefail
source bench/device/solve_log.sh
f="$OUT/atsp-lagrange.jsonl"
limit="${ATSP_LIMIT:-15}"
if [[ -z "${ATSP_SKIP_TESTS:-}" ]]; then
  timeout "${ATSP_TEST_LIMIT:-150}" permjit_gpu_tests "[lagrange]" > "$OUT/gpu-tests.log" 2>&1
  echo "gpu tests [lagrange] exit $?"; tail -3 "$OUT/gpu-tests.log"
fi
# NAME or NAME:LB (a bound other than the default).
for item in ${ATSP_INSTANCES:-br17 ftv33 ftv35 ftv38 p43 ry48p ft53 ftv55}; do
  i=${item%%:*} lb=${item#*:}
  [[ $lb == "$item" ]] && lb=
  before=$(cat "$f" 2>/dev/null | wc -l)
  SOLVE_TIMEOUT="$limit" log_solve "$f" bound="${lb:-default}" limit_s="$limit" -- problems/atsp.toml \
    -i "$I/atsp/$i.atsp" --skeleton ivm ${lb:+--param lb=$lb}
  # Stopped at the limit: a line that says so, with no figures.
  [[ $(cat "$f" 2>/dev/null | wc -l) -gt $before ]] ||
    echo "{\"instance\": \"$i\", \"finished\": false, \"limit_s\": $limit, \"bound\": \"${lb:-default}\", \"commit\": \"$commit\"}" >> "$f"
done
