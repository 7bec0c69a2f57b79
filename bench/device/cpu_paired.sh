#!/usr/bin/env bash
# On the GPU machine's host, from the repository root with .device-bin carried: issue
# 22's two open bars measured in paired rounds, so that the machine's drift between
# runs falls on both sides alike. Each of ROUNDS rounds (default 4) runs the
# hand-written counter (bench/cpu/nqueens_bitboard.c) and `permjit solve nqueens.toml
# --no-symmetry --backend cpu --threads 1` on n = 15 and 16, then flowshop ta029 (LB2,
# forward, --ub 2237, 10 s limit) on 1 and on 16 threads. JSON lines in
# $OUT/cpu-paired.jsonl; the medians at the end.
#   bash bench/device/cpu_paired.sh [ROUNDS]
set -uo pipefail
source bench/device/solve_log.sh
rounds=${1:-4}
f="$OUT/cpu-paired.jsonl"
cc="$(command -v cc || command -v gcc || echo "c++ -x c")"
$cc -O3 -march=native -o /tmp/nqueens_bitboard bench/cpu/nqueens_bitboard.c
# The modules compiled once before the rounds: the rounds time searches only.
permjit solve problems/nqueens.toml --param n=8 --no-symmetry --backend cpu --quiet > /dev/null
permjit solve problems/flowshop.toml -i "$I/flowshop/ta029.txt" --param branching=1 --param lb=2 --backend cpu \
  --ub 2237 --time-limit 1 --quiet > /dev/null
for r in $(seq 1 "$rounds"); do
  for n in 15 16; do
    /tmp/nqueens_bitboard "$n" | python3 -c "
import json, sys
r = json.loads(sys.stdin.read()); r.update(round='$r', what='bitboard', commit='$commit')
open('$f', 'a').write(json.dumps(r) + '\n'); print('bitboard', r['params']['n'], r['time_s']['search'])"
    log_solve "$f" round="$r" what=permjit -- problems/nqueens.toml --param n="$n" --no-symmetry --backend cpu --threads 1
  done
  log_ta029_pair "$f" "$r"
done
python3 - "$f" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
def med(xs): return statistics.median(xs) if xs else float("nan")
for n in (15, 16):
    bb = med([r["time_s"]["search"] for r in rows if r["what"] == "bitboard" and r["params"]["n"] == n])
    pj = med([r["time_s"]["search"] for r in rows if r["what"] == "permjit" and r["params"]["n"] == n])
    print(f"N-Queens {n}: permjit one thread {pj:.3f} s, hand-written {bb:.3f} s, ratio {pj / bb:.3f}")
rate = {t: med([r["nodes"]["evaluated"] / r["time_s"]["search"] for r in rows if r["what"] == f"ta029-{t}"]) for t in (1, 16)}
print(f"ta029 forward LB2: 1 thread {rate[1]:.0f} evaluated/s, 16 threads {rate[16]:.0f}, {rate[16] / rate[1]:.2f}x")
PY
