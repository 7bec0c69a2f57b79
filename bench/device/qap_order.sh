#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried (issue 47): the
# facilities' order of problems/qap.toml (`order`, branch.positions). First the GPU tests
# of the reordered search ($OUT/gpu-tests-positions.log); then, on `ivm` with
# Gilmore-Lawler (lb = 2):
#   - trees at each instance's optimum as --ub, order = 0 (the instance's) and 1
#     (decreasing flow, the default): TREE_CASES;
#   - proofs from scratch with the defaults, each stopped at SCRATCH_LIMIT s (default 120):
#     SCRATCH_CASES, name:limit overriding it;
#   - block sizes on nug18 at its optimum (BLOCKS, default "64 256").
# JSON lines in $OUT/qap-order.jsonl (`case`, `order` labels).
set -uo pipefail
source bench/device/solve_log.sh
f="$OUT/qap-order.jsonl"
Q=$I/qap
(cd /tmp && timeout "${GPU_TESTS_LIMIT:-240}" permjit_gpu_tests "${GPU_TESTS:-[positions]}" --durations yes 2>&1 |
   tee "$OUT/gpu-tests-positions.log" | tail -4)
for t in ${TREE_CASES:-nug17:1732 nug18:1930 tai17a:491812 chr18a:11098}; do
  for order in 0 1; do
    log_solve "$f" case="${t%%:*}-opt" order=$order -- problems/qap.toml -i "$Q/${t%%:*}.dat" --skeleton ivm \
      --ub "${t##*:}" --param order=$order
  done
done
for b in ${BLOCKS:-64 256}; do
  log_solve "$f" case=nug18-opt order=1 block=$b -- problems/qap.toml -i "$Q/nug18.dat" --skeleton ivm --ub 1930 --block-size "$b"
done
for t in ${SCRATCH_CASES:-nug12 nug14 nug15 nug16a nug17 nug18 had12 had14 had16 had18 had20 chr12a chr12b chr18a rou12 scr12 tai12a tai17a scr20 nug20 rou20:60}; do
  name=${t%%:*}
  limit=${SCRATCH_LIMIT:-120}
  [ "$t" != "$name" ] && limit=${t##*:}
  SOLVE_TIMEOUT=$((limit + 60)) log_solve "$f" case="$name-scratch" order=1 -- problems/qap.toml -i "$Q/$name.dat" \
    --skeleton ivm --time-limit "$limit"
done
python3 - "$f" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    print(r["case"], "order", r.get("order"), "block", r.get("block", "-"), "objective", r.get("objective"),
          "complete", r.get("complete"), "evaluated", r["nodes"]["evaluated"], "search %.3f" % r["time_s"]["search"])
PY
