#!/usr/bin/env bash
# On the GPU machine's host, from the repository root with .device-bin carried: what
# the host itself gives 16 threads, without any sharing between them. The same
# one-thread work alone and as 16 independent processes at once: the hand-written
# N-Queens 15 counter, and permjit's flowshop ta029 forward LB2 (--ub 2237, one thread,
# 10 s). If 16 independent processes each run slower than one alone, that loss bounds
# what a 16-thread search can reach. ROUNDS rounds (default 2). JSON lines in
# $OUT/cpu-independent.jsonl; the summary at the end.
#   bash bench/device/cpu_independent.sh [ROUNDS]
set -uo pipefail
source bench/device/solve_log.sh
rounds=${1:-2}
f="$OUT/cpu-independent.jsonl"
cc="$(command -v cc || command -v gcc || echo "c++ -x c")"
$cc -O3 -march=native -o /tmp/nqueens_bitboard bench/cpu/nqueens_bitboard.c
flowshop=(problems/flowshop.toml -i "$I/flowshop/ta029.txt" --param branching=1 --param lb=2 --backend cpu --threads 1
  --ub 2237 --time-limit 10 --json --quiet)
permjit solve "${flowshop[@]}" --time-limit 1 > /dev/null  # the module compiled first
tag() {  # tag ROUND WHAT COPIES: labels each JSON line read from stdin
  python3 -c "
import json, sys
for l in sys.stdin:
    r = json.loads(l); r.update(round='$1', what='$2', copies=$3, commit='$commit')
    print(json.dumps(r))" >> "$f"
}
for r in $(seq 1 "$rounds"); do
  /tmp/nqueens_bitboard 15 | tag "$r" bitboard 1
  for k in $(seq 1 16); do /tmp/nqueens_bitboard 15 > "/tmp/bb.$k" & done; wait
  cat /tmp/bb.* | tag "$r" bitboard 16
  permjit solve "${flowshop[@]}" | tag "$r" ta029 1
  for k in $(seq 1 16); do permjit solve "${flowshop[@]}" > "/tmp/fs.$k" & done; wait
  cat /tmp/fs.* | tag "$r" ta029 16
done
python3 - "$f" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
for what in ("bitboard", "ta029"):
    rate = lambda r: r["nodes"]["evaluated"] / r["time_s"]["search"]
    one = statistics.median([rate(r) for r in rows if r["what"] == what and r["copies"] == 1])
    for rd in sorted({r["round"] for r in rows}):
        many = [rate(r) for r in rows if r["what"] == what and r["copies"] == 16 and r["round"] == rd]
        print(f"{what} round {rd}: 16 independent copies together {sum(many) / one:.2f}x one alone "
              f"(each {statistics.median(many) / one:.2f} of one alone's rate)")
PY
