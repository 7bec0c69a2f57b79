#!/usr/bin/env bash
# On the GPU machine, with .device-bin carried: forward flowshop (branching=1, LB2) at
# the optimum on ivm, by build and by knob, in paired rounds (issue 43's slowdown).
#   bash bench/device/forward_probe.sh ROUNDS "VARIANT..." [INSTANCE:UB...]
# A VARIANT is BUILD or BUILD+KNOB: BUILD names .device-bin/bin/permjit-BUILD ("head" is
# .device-bin/bin/permjit), KNOB one of
#   compiled   --data compiled (the instance's values compiled in, constant memory)
#   runtime    --data run-time (the values read at run time, global memory)
#   constant   PERMJIT_RUN_TIME_ARRAYS=constant (run-time arrays in constant memory)
#   budget     PERMJIT_UNROLL_BUDGET=8192 (the unroll budget of compiled data)
#   halfsteal  -DPJ_IVM_STEAL_HALF (the seed's steal)
#   ends       the defaults (both ends, LB1 then LB2), for the other side of a trade
#   poll=P     -DPJ_IVM_POLL_PERIOD=P (children between looks at the trigger)
#   local      --ivm-rows local
#   explorers=T  --explorers T
#   slice=S    rounds cut every S seconds (a checkpoint every S seconds)
# Each variant has its own module cache (the first round compiles; with --data compiled,
# one module per instance). JSON lines in
# $OUT/forward-probe.jsonl labelled variant=, round=.
set -uo pipefail
source bench/device/solve_log.sh
rounds="${1:-2}"
variants=($2)
shift 2
cases=("${@:-ta022:2099 ta023:2326}")
cases=(${cases[@]})
for v in "${variants[@]}"; do
  b=${v%%+*}
  mkdir -p "/tmp/permjit-$b/bin"
  if [ "$b" = head ]; then cp .device-bin/bin/permjit "/tmp/permjit-$b/bin/permjit"; else cp ".device-bin/bin/permjit-$b" "/tmp/permjit-$b/bin/permjit"; fi
done
file="$OUT/forward-probe.jsonl"
for k in $(seq 1 "$rounds"); do
  for c in "${cases[@]}"; do
    for v in "${variants[@]}"; do
      b=${v%%+*}
      knob=""
      [[ $v == *+* ]] && knob=${v#*+}
      args=(--param branching=1)
      envs=()
      case $knob in
        compiled) args+=(--data compiled) ;;
        runtime) args+=(--data run-time) ;;
        constant) envs+=(PERMJIT_RUN_TIME_ARRAYS=constant) ;;
        budget) envs+=(PERMJIT_UNROLL_BUDGET=8192) ;;
        halfsteal) envs+=(PERMJIT_NVRTC_OPTIONS=-DPJ_IVM_STEAL_HALF) ;;
        ends) args=() ;;
        poll=*) envs+=(PERMJIT_NVRTC_OPTIONS=-DPJ_IVM_POLL_PERIOD=${knob#poll=}) ;;
        local) args+=(--ivm-rows local) ;;
        explorers=*) args+=(--explorers "${knob#explorers=}") ;;
        slice=*) args+=(--checkpoint "/tmp/forward-probe-$v.ckpt" --checkpoint-every "${knob#slice=}") ;;
      esac
      # The build by $PERMJIT, its own cache by --cache-dir (env.sh sets PATH and
      # PERMJIT_CACHE_DIR for the carried build).
      env "${envs[@]}" PERMJIT="/tmp/permjit-$b/bin/permjit" \
        bash -c 'source bench/device/solve_log.sh; log_solve "$@"' _ "$file" variant="$v" round="$k" -- \
        problems/flowshop.toml -i "$I/flowshop/${c%%:*}.txt" --ub "${c##*:}" --skeleton ivm "${args[@]}" \
        --cache-dir "/tmp/permjit-cache-$v"
    done
  done
done
