#!/usr/bin/env bash
# Issue 46 on the GPU machine, from the repository root with .device-bin carried
# (bench/device/prepare.sh here): docs/performance.md, "Pattern databases".
#   bash bench/device/pdb_roots_24.sh [BASE_PERMJIT] [BUDGET_S]
# 1. Korf's 100 with ida and puzzle15.toml's tables: the first run builds them (empty
#    cache); then five runs with the default roots, two each with --roots 528, 1056, 2112
#    and 4224 (the roots of one per worker, the earlier default), and, when BASE_PERMJIT
#    (an earlier build's binary) is given, three runs of it beside them;
# 2. records 9, 12, 42, 79 with --all-solutions on cpu, ida and ida-thread: the same
#    node counts per iteration; the GPU tests tagged [pdb] and [records];
# 3. the 24-puzzle (puzzle24.toml): a board 60 random moves from the goal with
#    --all-solutions on ida (it builds the tables) and cpu, the same counts; then
#    korf_taylor10.txt record 2 (optimum 95) on ida with a time limit chosen from a
#    first short run so that the whole script ends within BUDGET_S seconds (default 540).
# Every run's JSON lines go to $OUT/runs.jsonl (labelled), the checks to $OUT/checks.txt.
set -uo pipefail
D="$(cd .device-bin && pwd)"
BASE="${1:-}"
BUDGET="${2:-540}"
export PATH="$D/bin:$PATH"
export LD_LIBRARY_PATH="$D/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
OUT="${OUT:-/tmp/permjit-out}"
mkdir -p "$OUT"
K="$D/instances/15puzzle/korf100.txt"
T24="$D/instances/24puzzle/korf_taylor10.txt"
cache=/tmp/pdb-cache
rm -rf "$cache"
runs=$(mktemp -d)
echo "commit $(cat "$D/COMMIT"), $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
run() {  # run NAME BINARY SPEC INSTANCE TIMEOUT SOLVE-ARGS...
  local name=$1 bin=$2 spec=$3 inst=$4 limit=$5
  shift 5
  local t0=$SECONDS
  timeout "$limit" "$bin" solve "$spec" -i "$inst" "$@" --json --quiet --cache-dir "$cache" > "$runs/$name.jsonl" 2> "$runs/$name.err"
  echo "$name: rc $?, $((SECONDS - t0)) s wall; $(tail -1 "$runs/$name.jsonl" | cut -c1-300) $(tail -c 300 "$runs/$name.err")"
}
P15=problems/puzzle15.toml
P24=problems/puzzle24.toml
run k-build permjit $P15 "$K" 150 --records 1-100 --skeleton ida
for k in 1 2 3 4 5; do
  run k-default-$k permjit $P15 "$K" 60 --records 1-100 --skeleton ida
  if [ -n "$BASE" ] && [ "$k" -le 3 ]; then run k-base-$k "$BASE" $P15 "$K" 60 --records 1-100 --skeleton ida; fi
done
for r in 528 1056 2112 4224; do
  for k in 1 2; do run k-roots$r-$k permjit $P15 "$K" 60 --records 1-100 --skeleton ida --roots $r; done
done
for sk in cpu ida ida-thread; do run diff-$sk permjit $P15 "$K" 60 --records 9,12,42,79 --skeleton $sk --all-solutions; done
# The GPU tests of ida with the tables (8-puzzle tables; Korf records in one call),
# with the cache above: the 15-puzzle's tables are not built again.
(source bench/device/env.sh && export PERMJIT_TEST_CACHE_DIR=$cache &&
  timeout 150 permjit_gpu_tests "[pdb],[records]") > "$OUT/gpu_tests.txt" 2>&1
echo "gpu tests [pdb],[records]: rc $?, $(tail -2 "$OUT/gpu_tests.txt" | tr '\n' ' ')"
# The 24-puzzle: a board 60 random moves from the goal (no move undoing the last).
python3 - > "$runs/easy24.txt" <<'PY'
import random
random.seed(46)
w, b = 5, [i for i in range(25)]
z, last = 0, None
for _ in range(60):
    r, c = divmod(z, w)
    opts = [(dr, dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < w and 0 <= c + dc < w and (-dr, -dc) != last]
    dr, dc = random.choice(opts)
    n = (r + dr) * w + c + dc
    b[z], b[n] = b[n], b[z]
    z, last = n, (dr, dc)
print(" ".join(map(str, b)))
PY
run e24-ida permjit $P24 "$runs/easy24.txt" 400 --skeleton ida --all-solutions
run e24-cpu permjit $P24 "$runs/easy24.txt" 120 --skeleton cpu --all-solutions
run t24-r2-short permjit $P24 "$T24" 120 --records 2 --skeleton ida --time-limit 3
# The next run's time limit: the iterations so far, each longer than the last by the
# last ratio, as many as end within what is left of the budget.
left=$((BUDGET - SECONDS - 30))
limit=$(python3 - "$runs/t24-r2-short.jsonl" "$left" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{") and '"iterations"' in l]
its = [i["seconds"] for i in rows[0]["iterations"]] if rows else []
left = float(sys.argv[2])
if len(its) < 2 or left < 20:
    print(0)
    sys.exit()
ratio = max(2.0, its[-1] / max(its[-2], 1e-3))
done, t, limit = sum(its), its[-1], 0
while True:
    t *= ratio
    if done + t > left:
        break
    limit = done + t / 2  # the next iteration starts before it, the one after does not
    done += t
print(round(limit, 1) if limit else 0)
PY
)
echo "24-puzzle record 2: time limit $limit s (left $left s)"
if [ "$limit" != "0" ]; then run t24-r2 permjit $P24 "$T24" $((left + 20)) --records 2 --skeleton ida --time-limit "$limit"; fi
python3 - "$runs" "$D" "$OUT" <<'PY' | tee "$OUT/checks.txt"
import json, sys, os
out, d, dest = sys.argv[1], sys.argv[2], sys.argv[3]
with open(os.path.join(dest, "runs.jsonl"), "w") as f:
    for name in sorted(os.listdir(out)):
        if name.endswith(".jsonl"):
            for l in open(os.path.join(out, name)):
                if l.strip().startswith("{"):
                    f.write(json.dumps({"run": name[:-6], **json.loads(l)}) + "\n")
def rows(name):
    try:
        return [json.loads(l) for l in open(os.path.join(out, name + ".jsonl")) if l.strip().startswith("{")]
    except (OSError, ValueError):
        return []
def records(name):
    return [r for r in rows(name) if "summary" not in r]
def per_it(r):
    return [(i["limit"], i["expanded"], i["evaluated"], i["solutions"]) for i in r["iterations"]]
cpu = records("diff-cpu")
for sk in ("ida", "ida-thread"):
    other = records("diff-" + sk)
    same = len(cpu) == len(other) == 4 and all(per_it(a) == per_it(b) for a, b in zip(cpu, other))
    print(f"node counts per iteration, cpu vs {sk} (records 9, 12, 42, 79, --all-solutions): {'same' if same else 'DIFFERENT'}")
a, b = records("e24-ida"), records("e24-cpu")
print("24-puzzle, 60 random moves, --all-solutions, cpu vs ida:",
      "same" if a and b and per_it(a[0]) == per_it(b[0]) else "DIFFERENT or missing",
      (a[0]["cost"] if a else None), (b[0]["cost"] if b else None))
opt = [int(x) for x in open(os.path.join(d, "instances/15puzzle/korf100_optimal.txt")).read().split()]
for name in sorted(n[:-6] for n in os.listdir(out) if n.startswith("k-") and n.endswith(".jsonl")):
    rs = records(name)
    ok = len(rs) == 100 and all(r["cost"] == opt[r["record"] - 1] and len(r["path"]) == opt[r["record"] - 1] for r in rs)
    t = [r["time_s"] for r in rs]
    s = lambda k: sum(x[k] for x in t)
    print(f"{name}: {len(rs)} records, optimal: {ok}, search {s('search'):.3f} s (prepare {s('prepare'):.3f}, "
          f"upper {s('upper'):.3f}, host {s('host'):.3f}, transfers {s('transfers'):.3f}, kernels {s('kernels'):.3f}), "
          f"expanded {sum(r['nodes']['expanded'] for r in rs)}")
PY
