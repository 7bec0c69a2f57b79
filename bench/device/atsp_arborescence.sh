#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried: atsp.toml's
# default bound (lb=4: the arborescence where it is the larger at the root) on `ivm`:
# br17 at --ub 39 three times and from scratch, with lb=1 (the assignment) once beside
# it; p43 and ry48p from scratch as far as they go in 90 s (SIGINT after a checkpoint;
# the progress lines say where they were). JSON lines in $OUT/atsp-arborescence.jsonl.
set -uo pipefail
source bench/device/solve_log.sh
f="$OUT/atsp-arborescence.jsonl"
A=$I/atsp
for r in 1 2 3; do log_solve "$f" run="$r" bound=default -- problems/atsp.toml -i $A/br17.atsp --skeleton ivm --ub 39; done
log_solve "$f" run=1 bound=lb1 -- problems/atsp.toml -i $A/br17.atsp --skeleton ivm --ub 39 --param lb=1
log_solve "$f" run=1 bound=default-scratch -- problems/atsp.toml -i $A/br17.atsp --skeleton ivm
for i in p43 ry48p; do
  timeout -s INT 90 permjit solve problems/atsp.toml -i $A/$i.atsp --skeleton ivm --json --progress \
    --checkpoint "$OUT/$i.ckpt" --checkpoint-every 30 > "$OUT/atsp-arb-$i.json" 2> "$OUT/atsp-arb-$i.log"
  echo "$i exit $?"; tail -3 "$OUT/atsp-arb-$i.log"
done
rm -f "$OUT"/*.ckpt
