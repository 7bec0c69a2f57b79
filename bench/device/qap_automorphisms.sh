#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried (issue 47):
# problems/qap.toml's [symmetry] position_automorphisms (the grid reflections of nug12,
# nug15 and nug20's distances). First the GPU tests of the narrowed search
# ($OUT/gpu-tests-automorphisms.log, GPU_TESTS to choose, GPU_TESTS="" to skip); then
# proofs from scratch with the defaults on `ivm`, each stopped at SCRATCH_LIMIT s (default
# 120): SCRATCH_CASES, name[:runs] with the symmetry (default runs 1), and NO_SYMMETRY_CASES
# the same with --no-symmetry, the peer of the same call.
# JSON lines in $OUT/qap-automorphisms.jsonl (`case`, `symmetry`, `run` labels).
set -uo pipefail
source bench/device/solve_log.sh
f="$OUT/qap-automorphisms.jsonl"
Q=$I/qap
if [ -n "${GPU_TESTS-[position_automorphisms],[positions],[qap]}" ]; then
  (cd /tmp && timeout "${GPU_TESTS_LIMIT:-300}" permjit_gpu_tests "${GPU_TESTS-[position_automorphisms],[positions],[qap]}" \
     --durations yes 2>&1 | tee "$OUT/gpu-tests-automorphisms.log" | tail -4)
fi
limit=${SCRATCH_LIMIT:-120}
run_cases() {
  local symmetry=$1
  shift
  local t name runs k
  for t in "$@"; do
    name=${t%%:*}
    runs=1
    [ "$t" != "$name" ] && runs=${t##*:}
    for k in $(seq 1 "$runs"); do
      local extra=()
      [ "$symmetry" = off ] && extra=(--no-symmetry)
      SOLVE_TIMEOUT=$((limit + 60)) log_solve "$f" case="$name-scratch" symmetry="$symmetry" run="$k" -- \
        problems/qap.toml -i "$Q/$name.dat" --skeleton ivm --time-limit "$limit" "${extra[@]}"
    done
  done
}
# shellcheck disable=SC2086  # lists of cases
run_cases on ${SCRATCH_CASES:-nug12 nug15 nug20:3}
# shellcheck disable=SC2086
run_cases off ${NO_SYMMETRY_CASES:-}
python3 - "$f" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    print(r["case"], "symmetry", r.get("symmetry"), "run", r.get("run"), "objective", r.get("objective"),
          "complete", r.get("complete"), "evaluated", r["nodes"]["evaluated"],
          "compile %.2f search %.3f total %.2f" % (r["time_s"]["compile"], r["time_s"]["search"], r["time_s"]["total"]))
PY
