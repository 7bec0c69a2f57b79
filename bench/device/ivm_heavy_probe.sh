#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried: `ivm` knobs
# compared without a rebuild (NVRTC options through PERMJIT_NVRTC_OPTIONS), on the
# instances of $CASES at their optima, $RUNS runs of each setting after its compile:
#   PERIODS    the heavy nodes' poll period (-DPJ_IVM_POLL_PERIOD_HEAVY; light nodes'
#              -DPJ_IVM_POLL_PERIOD too), "d" the default
#   STEALS     "row" (the default) and/or "half" (the seed's, -DPJ_IVM_STEAL_HALF)
#   EXPLORERS  --explorers, "d" as many as the device holds
#   TRIGGERS   --trigger as a fraction of the explorers, "d" the default (a quarter)
# Cases: br17 (ATSP, default bound: the arborescence), br17-lb0 (the partial cost),
# ftv33, nqueens17, and the QAPLIB instances nug12 nug14 nug15 chr12a chr12b had12
# had14 tai12a scr12 rou12 (Gilmore-Lawler). JSON lines in $OUT/ivm-heavy-probe.jsonl.
#   CASES="br17 nug15" PERIODS="2 3 4" bash bench/device/ivm_heavy_probe.sh
set -uo pipefail
source bench/device/solve_log.sh
f="$OUT/ivm-heavy-probe.jsonl"
A=$I/atsp
Q=$I/qap
declare -A args=(
  [br17]="problems/atsp.toml -i $A/br17.atsp --ub 39"
  [br17-lb0]="problems/atsp.toml -i $A/br17.atsp --ub 39 --param lb=0"
  [ftv33]="problems/atsp.toml -i $A/ftv33.atsp --ub 1286"
  [nqueens17]="problems/nqueens.toml --param n=17"
)
for q in nug12:578 nug14:1014 nug15:1150 chr12a:9552 chr12b:9742 had12:1652 had14:2724 tai12a:224416 scr12:31410 rou12:235528; do
  args[${q%%:*}]="problems/qap.toml -i $Q/${q%%:*}.dat --ub ${q##*:}"
done
explorers_of() {  # the default count of a case, read from one run
  permjit solve ${args[$1]} --skeleton ivm --json --quiet | python3 -c "import json,sys; print(json.load(sys.stdin)['ivm']['explorers'])"
}
for c in ${CASES:-br17 br17-lb0 nug15}; do
  [[ -n ${args[$c]+x} ]] || { echo "unknown case $c"; exit 2; }
  read -r -a solve <<< "${args[$c]}"
  for p in ${PERIODS:-d}; do
    for steal in ${STEALS:-row}; do
      opts=""
      [[ $p != d ]] && opts+=" -DPJ_IVM_POLL_PERIOD=$p -DPJ_IVM_POLL_PERIOD_HEAVY=$p"
      [[ $steal == half ]] && opts+=" -DPJ_IVM_STEAL_HALF"
      for x in ${EXPLORERS:-d}; do
        for t in ${TRIGGERS:-d}; do
          more=()
          [[ $x != d ]] && more+=(--explorers "$x")
          if [[ $t != d ]]; then
            total=$([[ $x != d ]] && echo "$x" || PERMJIT_NVRTC_OPTIONS="$opts" explorers_of "$c")
            more+=(--trigger "$(python3 -c "print(max(1, int($total * $t)))")")
          fi
          for r in $(seq "${RUNS:-3}"); do
            PERMJIT_NVRTC_OPTIONS="$opts" log_solve "$f" run="$r" case="$c" period="$p" steal="$steal" explorers="$x" \
              trigger="$t" -- "${solve[@]}" --skeleton ivm "${more[@]}"
          done
        done
      done
    done
  done
done
