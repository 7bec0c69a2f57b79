# Sourced by `bench/device/qap_dual.sh block` (issue 47): dualassign() computed by a block
# per child on the offload skeleton (templates/pair_dual_block.h), against
# Gilmore-Lawler (lb = 2) on ivm. First the GPU tests tagged [offload] (the block's
# value and trees against the cpu's, offload's --time-limit) into
# $OUT/gpu-tests-offload.log; then, each capped by --time-limit, the QAPLIB instances at
# their optima and nug20, had20, rou20 from scratch. Runs are skipped once
# $BUDGET seconds (default 250) would be passed. JSON lines in $OUT/qap-block.jsonl.
f="$OUT/qap-block.jsonl"
Q=$I/qap
budget=${BUDGET:-250}
(cd /tmp && timeout "${GPU_TESTS_LIMIT:-90}" permjit_gpu_tests "[offload]" --durations yes 2>&1 |
  tee "$OUT/gpu-tests-offload.log" | tail -6)
# run SECONDS LABEL ARGS...: one solve, capped at SECONDS by --time-limit (the compile
# comes before it, so the kill timeout leaves 60 s more), unless the budget is spent.
run() {
  local limit=$1 label=$2
  shift 2
  if (( SECONDS + limit + 15 > budget )); then echo "$label: skipped (budget)"; return; fi
  SOLVE_TIMEOUT=$(( limit + 60 )) log_solve "$f" case="$label" -- problems/qap.toml "$@" --time-limit "$limit"
}
run 20 nug12-lb3-offload -i "$Q/nug12.dat" --skeleton offload --ub 578 --param lb=3
run 20 nug14-lb2-ivm -i "$Q/nug14.dat" --skeleton ivm --ub 1014 --param lb=2
run 20 nug14-lb3-offload -i "$Q/nug14.dat" --skeleton offload --ub 1014 --param lb=3
run 20 nug16a-lb2-ivm -i "$Q/nug16a.dat" --skeleton ivm --ub 1610 --param lb=2
run 30 nug16a-lb3-offload -i "$Q/nug16a.dat" --skeleton offload --ub 1610 --param lb=3
run 60 nug18-lb3-offload -i "$Q/nug18.dat" --skeleton offload --ub 1930 --param lb=3
for t in nug20 had20 rou20; do
  run 60 "$t-lb3-offload-scratch" -i "$Q/$t.dat" --skeleton offload --param lb=3
done
# The block's shape (VARIANTS=1; measured at d2fd2bd: the default was the fastest).
if [ "${VARIANTS:-0}" = 1 ]; then
  run 20 nug14-lb3-offload-b64 -i "$Q/nug14.dat" --skeleton offload --ub 1014 --param lb=3 --block-size 64
  PERMJIT_NVRTC_OPTIONS=-DPJ_REFINE_MIN_BLOCKS=4 run 20 nug14-lb3-offload-minblocks4 -i "$Q/nug14.dat" \
    --skeleton offload --ub 1014 --param lb=3
fi
