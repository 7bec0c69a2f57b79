#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried: ATSP with the
# assignment bound (atsp.toml's default lb=1) on `ivm`, from scratch: ftv33/35/38 to
# their proofs (150 s at most each), p43 and ry48p as far as they go in 90 s (stopped by
# SIGINT after a checkpoint; the progress lines say where they were). JSON and logs in $OUT.
# ATSP_PROVE and ATSP_LONG choose other instances (ATSP_LONG=" " runs none).
set -uo pipefail
source bench/device/env.sh
OUT="${OUT:-/tmp/permjit-out}"
mkdir -p "$OUT"
I=.device-bin/instances/atsp
for i in ${ATSP_PROVE:-ftv33 ftv35 ftv38}; do
  timeout -s INT 150 permjit solve problems/atsp.toml -i $I/$i.atsp --skeleton ivm --json --progress \
    --checkpoint "$OUT/$i.ckpt" --checkpoint-every 30 > "$OUT/atsp-ivm-$i.json" 2> "$OUT/atsp-ivm-$i.log"
  echo "$i exit $?"; tail -c 600 "$OUT/atsp-ivm-$i.json"; echo; tail -2 "$OUT/atsp-ivm-$i.log"
done
for i in ${ATSP_LONG:-p43 ry48p}; do
  timeout -s INT 90 permjit solve problems/atsp.toml -i $I/$i.atsp --skeleton ivm --json --progress \
    --checkpoint "$OUT/$i.ckpt" --checkpoint-every 30 > "$OUT/atsp-ivm-$i.json" 2> "$OUT/atsp-ivm-$i.log"
  echo "$i exit $?"; tail -3 "$OUT/atsp-ivm-$i.log"
done
rm -f "$OUT"/*.ckpt
