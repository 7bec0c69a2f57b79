#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried: `ivm` on the
# instances whose nodes solve a matching (ATSP br17 and ftv33 with the default bound,
# QAPLIB n = 12-15 with Gilmore-Lawler), each at its optimum (--ub), at the heavy
# nodes' poll periods of $PERIODS (NVRTC option -DPJ_IVM_POLL_PERIOD_HEAVY); $RUNS runs
# each after a compile. JSON lines in $OUT/ivm-heavy-cases.jsonl.
set -uo pipefail
source bench/device/solve_log.sh
f="$OUT/ivm-heavy-cases.jsonl"
A=$I/atsp
Q=$I/qap
RUNS="${RUNS:-3}"
cases=(
  "br17|problems/atsp.toml -i $A/br17.atsp --ub 39"
  "ftv33|problems/atsp.toml -i $A/ftv33.atsp --ub 1286"
)
for q in nug12:578 nug14:1014 nug15:1150 chr12a:9552 chr12b:9742 had12:1652 had14:2724 tai12a:224416 scr12:31410 rou12:235528; do
  cases+=("${q%%:*}|problems/qap.toml -i $Q/${q%%:*}.dat --ub ${q##*:}")
done
for c in "${cases[@]}"; do
  name=${c%%|*}
  read -r -a args <<< "${c#*|}"
  for p in ${PERIODS:-2 4}; do
    for r in $(seq "$RUNS"); do
      PERMJIT_NVRTC_OPTIONS="-DPJ_IVM_POLL_PERIOD_HEAVY=$p" log_solve "$f" run="$r" period="$p" case="$name" -- \
        "${args[@]}" --skeleton ivm
    done
  done
done
