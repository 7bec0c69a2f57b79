#!/usr/bin/env bash
# On the GPU machine, with .device-bin carried and the previous build copied to
# .device-bin/bin/permjit-base: the ivm backtrack (jump with shared rows, pop with local
# rows) against the build before it, paired runs; then N-Queens 21 once.
#   bash bench/device/ivm_backtrack_ab.sh ROUNDS
set -uo pipefail
source bench/device/solve_log.sh
rounds="${1:-3}"
mkdir -p /tmp/permjit-base/bin
cp .device-bin/bin/permjit-base /tmp/permjit-base/bin/permjit
f="$OUT/ivm-backtrack-ab.jsonl"
pair() {  # label, run, then the solve's arguments
  local label=$1 k=$2
  shift 2
  PATH="/tmp/permjit-base/bin:$PATH" PERMJIT_CACHE_DIR=/tmp/permjit-cache-base log_solve "$f" build=base case="$label" run="$k" -- "$@"
  log_solve "$f" build=new case="$label" run="$k" -- "$@"
}
for k in $(seq 1 "$rounds"); do
  pair nqueens19-ivm "$k" problems/nqueens.toml --param n=19 --skeleton ivm
  pair ta029-forward-ivm "$k" problems/flowshop.toml --instance "$I/flowshop/ta029.txt" --param branching=1 --ub 2237 --skeleton ivm
done
pair nqueens20-ivm 1 problems/nqueens.toml --param n=20 --skeleton ivm
timeout 200 permjit solve problems/nqueens.toml --param n=21 --skeleton ivm --json --quiet >"$OUT/nqueens21.json" &&
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('nqueens21', d['time_s']['search'], d['nodes'])" "$OUT/nqueens21.json"
