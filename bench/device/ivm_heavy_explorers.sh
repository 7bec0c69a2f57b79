#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried: `ivm` on heavy
# nodes (br17 and ftv33 with the default bound, nug15 with Gilmore-Lawler, each at its
# optimum) with $EXPLORERS explorers ("d": as many as the device holds) at the heavy
# poll periods of $PERIODS; br17 with the partial cost (lb=0) at the defaults beside
# them. $RUNS runs each after a compile. JSON lines in $OUT/ivm-heavy-explorers.jsonl.
set -uo pipefail
source bench/device/solve_log.sh
f="$OUT/ivm-heavy-explorers.jsonl"
A=$I/atsp
Q=$I/qap
RUNS="${RUNS:-2}"
cases=(
  "br17|problems/atsp.toml -i $A/br17.atsp --ub 39"
  "nug15|problems/qap.toml -i $Q/nug15.dat --ub 1150"
  "ftv33|problems/atsp.toml -i $A/ftv33.atsp --ub 1286"
)
for c in "${cases[@]}"; do
  name=${c%%|*}
  read -r -a args <<< "${c#*|}"
  for p in ${PERIODS:-3 4}; do
    for x in ${EXPLORERS:-d 65536 32768 16384}; do
      xargs=()
      [[ $x != d ]] && xargs=(--explorers "$x")
      for r in $(seq "$RUNS"); do
        PERMJIT_NVRTC_OPTIONS="-DPJ_IVM_POLL_PERIOD_HEAVY=$p" log_solve "$f" run="$r" period="$p" explorers="$x" case="$name" -- \
          "${args[@]}" --skeleton ivm "${xargs[@]}"
      done
    done
  done
done
for r in $(seq "$RUNS"); do
  log_solve "$f" run="$r" period=64 explorers=d case=br17-lb0 -- problems/atsp.toml -i $A/br17.atsp --skeleton ivm --ub 39 --param lb=0
done
