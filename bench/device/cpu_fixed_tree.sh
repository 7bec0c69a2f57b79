#!/usr/bin/env bash
# On the GPU machine's host, from the repository root with .device-bin carried: flowshop
# ta029 (LB2, forward) on 1 and on 16 threads over one fixed tree: --ub 2205, below the
# optimum (2237), so that the search completes (6.66e6 evaluated nodes, the same at
# every thread count) and both thread counts evaluate the same nodes. With a time limit
# at the optimum (cpu_paired.sh) the threads search different parts of the tree, whose
# nodes cost different times. ROUNDS rounds (default 3), each 1 thread then 16. JSON
# lines in $OUT/cpu-fixed-tree.jsonl; the medians at the end.
#   bash bench/device/cpu_fixed_tree.sh [ROUNDS] [UB]
set -uo pipefail
source bench/device/solve_log.sh
rounds=${1:-3}
ub=${2:-2205}
f="$OUT/cpu-fixed-tree.jsonl"
permjit solve problems/flowshop.toml -i "$I/flowshop/ta029.txt" --param branching=1 --param lb=2 --backend cpu \
  --ub 2237 --time-limit 1 --quiet > /dev/null  # the module compiled before the rounds
for r in $(seq 1 "$rounds"); do
  for t in 1 16; do
    log_solve "$f" round="$r" threads="$t" -- problems/flowshop.toml -i "$I/flowshop/ta029.txt" --param branching=1 \
      --param lb=2 --backend cpu --threads "$t" --ub "$ub"
  done
done
python3 - "$f" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
counts = {r["nodes"]["evaluated"] for r in rows}
print("evaluated nodes:", sorted(counts), "(one value: every run searched the same tree)")
for t in ("1", "16"):
    s = [r["time_s"]["search"] for r in rows if r["threads"] == t]
    print(f"{t} threads: search {statistics.median(s):.3f} s (runs {', '.join('%.3f' % x for x in s)})")
one = statistics.median([r["time_s"]["search"] for r in rows if r["threads"] == "1"])
sixteen = statistics.median([r["time_s"]["search"] for r in rows if r["threads"] == "16"])
print(f"16 threads / 1 thread in evaluated nodes per second: {one / sixteen:.2f}x")
pairs = {}
for r in rows: pairs.setdefault(r["round"], {})[r["threads"]] = r["time_s"]["search"]
print("per round:", ", ".join("%.2fx" % (p["1"] / p["16"]) for p in pairs.values() if "1" in p and "16" in p))
PY
