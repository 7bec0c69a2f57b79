#!/usr/bin/env bash
# On the GPU machine, with .device-bin carried: the same solves with several builds,
# paired (each round runs every build in turn). The builds are .device-bin/bin/permjit-NAME
# (copied there by hand after prepare.sh), named on the command line:
#   bash bench/device/builds_ab.sh ROUNDS "NAME..." [CASE...]   # CASE: a label below (all by default)
# First each build's answer on the QAP whose Gilmore-Lawler bound the local-rows kernel
# got wrong (bench/qap10_test.dat, optimum 1633), then the cases. JSON lines in
# $OUT/builds-ab.jsonl, labelled build=NAME case=LABEL run=K.
set -uo pipefail
source bench/device/solve_log.sh
rounds="${1:-3}"
builds=($2)
shift 2
cases=" $* "
for b in "${builds[@]}"; do
  mkdir -p "/tmp/permjit-$b/bin"
  cp ".device-bin/bin/permjit-$b" "/tmp/permjit-$b/bin/permjit"
done
file="$OUT/builds-ab.jsonl"
with() {  # build, then the command
  local b=$1
  shift
  PATH="/tmp/permjit-$b/bin:$PATH" PERMJIT_CACHE_DIR="/tmp/permjit-cache-$b" "$@"
}
for b in "${builds[@]}"; do
  for rows in local shared; do
    echo "$b qap10 lb=2 --ivm-rows $rows: $(with "$b" permjit solve problems/qap.toml --instance bench/qap10_test.dat \
      --skeleton ivm --ivm-rows $rows --explorers 1 --quiet --json | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["objective"], r["nodes"]["evaluated"])')"
  done
done
each() {  # label, then the solve's arguments
  local label=$1
  shift
  [[ $cases == "  " || $cases == *" $label "* ]] || return 0
  for k in $(seq 1 "$rounds"); do
    for b in "${builds[@]}"; do with "$b" log_solve "$file" build="$b" case="$label" run="$k" -- "$@"; done
  done
}
each br17-ivm problems/atsp.toml --instance "$I/atsp/br17.atsp" --ub 39 --skeleton ivm
each br17-lb1-ivm problems/atsp.toml --instance "$I/atsp/br17.atsp" --param lb=1 --ub 39 --skeleton ivm
each nug15-ivm problems/qap.toml --instance "$I/qap/nug15.dat" --skeleton ivm
each nug15-dfs problems/qap.toml --instance "$I/qap/nug15.dat" --skeleton dfs
each tai12a-ivm problems/qap.toml --instance "$I/qap/tai12a.dat" --skeleton ivm
each rou12-ivm problems/qap.toml --instance "$I/qap/rou12.dat" --skeleton ivm
each had14-ivm problems/qap.toml --instance "$I/qap/had14.dat" --skeleton ivm
each nqueens17-ivm problems/nqueens.toml --param n=17 --skeleton ivm
