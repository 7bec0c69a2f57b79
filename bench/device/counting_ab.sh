#!/usr/bin/env bash
# On the GPU machine, with .device-bin carried: the counting loop of this build against
# another build (.device-bin/bin/permjit-base, copied there by hand after prepare.sh),
# paired: each run of one is followed by the same run of the other, on the same GPU.
#   bash bench/device/counting_ab.sh ROUNDS [CASE...]   # CASE: a label below (all by default)
# JSON lines in $OUT/counting-ab.jsonl, labelled build=base|new and run=K.
set -uo pipefail
source bench/device/solve_log.sh
rounds="${1:-3}"
shift
cases=" $* "
base_dir=/tmp/permjit-base/bin
mkdir -p "$base_dir"
cp .device-bin/bin/permjit-base "$base_dir/permjit"
file="$OUT/counting-ab.jsonl"
both() {  # label, then the solve's arguments
  local label=$1
  shift
  [[ $cases == "  " || $cases == *" $label "* ]] || return 0
  for k in $(seq 1 "$rounds"); do
    PATH="$base_dir:$PATH" PERMJIT_CACHE_DIR=/tmp/permjit-cache-base log_solve "$file" build=base case="$label" run="$k" -- "$@"
    log_solve "$file" build=new case="$label" run="$k" -- "$@"
  done
}
both nqueens17-ivm problems/nqueens.toml --param n=17 --skeleton ivm
both nqueens18-ivm problems/nqueens.toml --param n=18 --skeleton ivm
both nqueens19-ivm problems/nqueens.toml --param n=19 --skeleton ivm
both nqueens17-dfs problems/nqueens.toml --param n=17 --skeleton dfs
both br17-ivm problems/atsp.toml --instance "$I/atsp/br17.atsp" --ub 39 --skeleton ivm
both ta029-forward-ivm problems/flowshop.toml --instance "$I/flowshop/ta029.txt" --param branching=1 --ub 2237 --skeleton ivm
