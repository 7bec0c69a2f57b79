#!/usr/bin/env bash
# On the GPU machine's host, from the repository root with .device-bin carried: the
# clock a core keeps with 1, 8 and 16 cores busy (bench/cpu/clock_probe.c, a chain of
# dependent additions per thread), then flowshop ta029 (LB2, forward, --ub 2237, 10 s
# limit) on 1 and 16 threads, in each of ROUNDS paired rounds (default 6): issue 22's
# ta029 bar against the host's own clock under load. JSON lines in $OUT/cpu-clock.jsonl
# (the probe's, with "what": "clock") and $OUT/cpu-clock-ta029.jsonl; the medians at
# the end.
#   bash bench/device/cpu_clock.sh [ROUNDS]
set -uo pipefail
source bench/device/solve_log.sh
rounds=${1:-6}
f="$OUT/cpu-clock-ta029.jsonl"
c="$OUT/cpu-clock.jsonl"
cc="$(command -v cc || command -v gcc || echo "c++ -x c")"
$cc -O2 -pthread -o /tmp/clock_probe bench/cpu/clock_probe.c
permjit solve problems/flowshop.toml -i "$I/flowshop/ta029.txt" --param branching=1 --param lb=2 --backend cpu \
  --ub 2237 --time-limit 1 --quiet > /dev/null  # the module compiled before the rounds
for r in $(seq 1 "$rounds"); do
  for n in 1 8 16; do
    /tmp/clock_probe "$n" | python3 -c "
import json, sys
r = json.loads(sys.stdin.read()); r.update(round='$r', what='clock', commit='$commit')
open('$c', 'a').write(json.dumps(r) + '\n'); print('clock', r['threads'], min(r['adds_per_ns']), max(r['adds_per_ns']))"
  done
  log_ta029_pair "$f" "$r"
done
python3 - "$c" "$f" <<'PY'
import json, statistics, sys
clock = [json.loads(l) for l in open(sys.argv[1])]
rows = [json.loads(l) for l in open(sys.argv[2])]
med = statistics.median
one = med([statistics.mean(r["adds_per_ns"]) for r in clock if r["threads"] == 1])
for n in (8, 16):
    m = med([statistics.mean(r["adds_per_ns"]) for r in clock if r["threads"] == n])
    print(f"clock: {n} busy cores at {m:.3f} adds/ns each against {one:.3f} alone: {m / one:.3f}, ceiling {n * m / one:.2f}x")
rate = {t: [r["nodes"]["evaluated"] / r["time_s"]["search"] for r in rows if r["what"] == f"ta029-{t}"] for t in (1, 16)}
ratios = [b / a for a, b in zip(rate[1], rate[16])]
print(f"ta029 forward LB2: 1 thread {med(rate[1]):.0f} evaluated/s, 16 threads {med(rate[16]):.0f}, "
      f"{med(rate[16]) / med(rate[1]):.2f}x; per round " + " ".join(f"{x:.2f}" for x in ratios))
PY
