#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried (issue 45): the
# GPU differential tests of the additive and Lagrangian bounds (lb = 5, 6 against the
# cpu oracle), then every TSPLIB ATSP of ../shared/instances/atsp up to 64 cities from
# scratch with atsp.toml's default on `ivm` ($ATSP_INSTANCES: NAME or NAME:LB; by default
# each instance with lb = 8, the root's multipliers, then br17 and ftv38 with lb = 7 as
# the baseline of the same call), each stopped after $ATSP_LIMIT s of search (default 15; --time-limit, so a
# stopped run reports its incumbent and proven bound). $ATSP_GPU_TESTS: the
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
# NAME or NAME:LB (a bound other than the default). The run is stopped by its own
# --time-limit (the search's seconds: a stopped run reports its incumbent and proven
# bound, marked partial), with `timeout` 60 s later as a backstop; the process's wall
# time, as a user sees it (the root's multipliers, the compile, the exit), is added to
# its line as process_wall_s.
for item in ${ATSP_INSTANCES:-br17:8 ftv33:8 ftv35:8 ftv38:8 p43:8 ry48p:8 ft53:8 ftv55:8 br17:7 ftv38:7}; do
  i=${item%%:*} lb=${item#*:}
  [[ $lb == "$item" ]] && lb=
  before=$(cat "$f" 2>/dev/null | wc -l)
  t0=$(date +%s.%N)
  SOLVE_TIMEOUT=$((${limit%.*} + 60)) log_solve "$f" bound="${lb:-default}" limit_s="$limit" -- problems/atsp.toml \
    -i "$I/atsp/$i.atsp" --skeleton ivm --time-limit "$limit" ${lb:+--param lb=$lb}
  wall=$(python3 -c "import time; print(round(time.time() - $t0, 3))")
  if [[ $(cat "$f" 2>/dev/null | wc -l) -gt $before ]]; then
    python3 - "$f" "$wall" <<'PY'
import json, sys
path, wall = sys.argv[1], float(sys.argv[2])
lines = open(path).read().splitlines()
r = json.loads(lines[-1])
r["process_wall_s"] = wall
lines[-1] = json.dumps(r)
open(path, "w").write("\n".join(lines) + "\n")
p = r.get("partial") or {}
print("   ", r["instance"].split("/")[-1], "lb", r["params"]["lb"], "objective", r.get("objective"),
      "proven bound" if p else "proved", p.get("proven_bound", ""), "process wall", wall)
PY
  else
    echo "{\"instance\": \"$i\", \"finished\": false, \"limit_s\": $limit, \"bound\": \"${lb:-default}\", \"process_wall_s\": $wall, \"commit\": \"$commit\"}" >> "$f"
  fi
done
