#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried: the `ivm`
# defaults on heavy and light nodes. ATSP br17 at --ub 39 with the default bound and with
# the partial cost (lb=0), in $PAIRS paired rounds; N-Queens 17; flowshop ta022 and ta029
# (two ends) at their optima; QAPLIB n = 12-15 and ftv33 (bench/device/ivm_heavy_probe.sh
# at the defaults). JSON lines in $OUT/ivm-heavy-final.jsonl and
# $OUT/ivm-heavy-probe.jsonl.
set -uo pipefail
source bench/device/solve_log.sh
f="$OUT/ivm-heavy-final.jsonl"
A=$I/atsp
F=$I/flowshop
for r in $(seq "${PAIRS:-5}"); do
  log_solve "$f" run="$r" case=br17-lb4 -- problems/atsp.toml -i $A/br17.atsp --skeleton ivm --ub 39
  log_solve "$f" run="$r" case=br17-lb0 -- problems/atsp.toml -i $A/br17.atsp --skeleton ivm --ub 39 --param lb=0
done
for r in 1 2 3; do log_solve "$f" run="$r" case=nqueens17 -- problems/nqueens.toml --param n=17 --skeleton ivm; done
for t in ta022:2099 ta029:2237; do
  for r in 1 2; do
    log_solve "$f" run="$r" case="${t%%:*}" -- problems/flowshop.toml -i "$F/${t%%:*}.txt" --skeleton ivm --ub "${t##*:}"
  done
done
CASES="br17 ftv33 nug12 nug14 nug15 chr12a chr12b had12 had14 tai12a scr12 rou12" RUNS="${RUNS:-2}" \
  bash bench/device/ivm_heavy_probe.sh
