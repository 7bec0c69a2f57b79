#!/usr/bin/env bash
# The TSPLIB ATSPs from scratch on the GPU machine, permjit's skeletons and bounds beside
# OR-Tools CP-SAT on the same host (issue 45). From the repository root with .device-bin
# and .whl carried (docs/measuring.md):
#   bash bench/device/atsp_side_by_side.sh [CONFIG...]
# A CONFIG is SKELETON/LB (either part may be `default`: what atsp.toml and permjit
# choose without the flag); by default `default/default offload/9 ivm/9`. Each instance
# of $ATSP_INSTANCES (default: every ATSP of ../shared/instances/atsp up to 64 cities)
# runs once per config, each a process of its own stopped by --time-limit $ATSP_LIMIT
# (default 15 s of search; a stopped run reports its incumbent and proven bound), the
# module cache kept between runs (the first run of a config compiles). Then CP-SAT with
# 16 workers on the same instances ($CPSAT_LIMIT s each, default 60).
# JSON lines: $OUT/atsp-side.jsonl (permjit, labelled config=, with the process's wall
# time) and $OUT/atsp-cpsat.jsonl; a line per run on stdout.
set -uo pipefail
source bench/device/solve_log.sh
f="$OUT/atsp-side.jsonl"
limit="${ATSP_LIMIT:-15}"
configs=("$@")
[[ ${#configs[@]} -eq 0 ]] && configs=(default/default offload/9 ivm/9)
instances=${ATSP_INSTANCES:-br17 ftv33 ftv35 ftv38 p43 ry48p ft53 ftv55}
for config in "${configs[@]}"; do
  skeleton=${config%%/*} lb=${config#*/}
  args=()
  [[ $skeleton != default ]] && args+=(--skeleton "$skeleton")
  [[ $lb != default ]] && args+=(--param "lb=$lb")
  for i in $instances; do
    t0=$(date +%s.%N)
    SOLVE_TIMEOUT=$((${limit%.*} + 90)) log_solve "$f" config="$config" limit_s="$limit" -- problems/atsp.toml \
      -i "$I/atsp/$i.atsp" --time-limit "$limit" "${args[@]}"
    wall=$(python3 -c "import time; print(round(time.time() - $t0, 3))")
    python3 - "$f" "$wall" "$i" "$config" <<'PY'
import json, sys
path, wall, name, config = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
lines = open(path).read().splitlines() if open(path).read() else []
last = json.loads(lines[-1]) if lines else {}
if last.get("config") == config and last.get("instance", "").endswith(name + ".atsp") and "process_wall_s" not in last:
    last["process_wall_s"] = wall
    lines[-1] = json.dumps(last)
    p = last.get("partial") or {}
    print("   ", name, config, last["skeleton"], "lb", last["params"]["lb"], "objective", last.get("objective"),
          "proven bound %s" % p.get("proven_bound") if p else "proved", "process wall", wall)
else:  # the run failed or was killed: a line that says so
    lines.append(json.dumps({"instance": name, "config": config, "finished": False, "process_wall_s": wall}))
    print("   ", name, config, "did not finish")
open(path, "w").write("\n".join(lines) + "\n")
PY
  done
done
if ls .whl/*.whl > /dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
  PYTHONPATH=/tmp/site python3 bench/device/atsp_cpsat.py --out "$OUT/atsp-cpsat.jsonl" --workers 16 \
    --limit "${CPSAT_LIMIT:-60}" $instances
else
  echo "no wheels in .whl: CP-SAT not run"
fi
