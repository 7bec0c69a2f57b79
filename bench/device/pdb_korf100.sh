#!/usr/bin/env bash
# Pattern databases on the GPU machine (docs/performance.md, "Pattern databases"), from
# the repository root with .device-bin carried (bench/device/prepare.sh here):
#   bash bench/device/pdb_korf100.sh
# 1. Korf's 100 with ida and the default 6-6-3 tables (and their reflection), from an
#    empty cache: the tables are built (a stage of its own) and the module compiled;
# 2. the same three times more: the tables loaded from the cache, the search timed;
# 3. ida-thread on the 100, and Korf's 100 with the Manhattan distance alone (pdb=0);
# 4. records 9, 12, 42, 79 with --all-solutions on cpu (16 threads), ida and ida-thread,
#    whose node counts per iteration must be the same.
# Every run's output (a JSON line per record, then the summary, each labelled with the
# run) goes to $OUT/pdb_korf100_runs.jsonl, the checks to $OUT/pdb_korf100_checks.txt.
# PDB_QUICK=1 leaves out step 3 (ida-thread alone searches for over two minutes).
# PDB_DIR names another folder laid out as .device-bin (bin, lib, instances), and
# PDB_SPEC another spec, for a device call whose checkout is not this one: both carried.
set -uo pipefail
D="$(cd "${PDB_DIR:-.device-bin}" && pwd)"
SPEC="${PDB_SPEC:-problems/puzzle15.toml}"
export PATH="$D/bin:$PATH"
export LD_LIBRARY_PATH="$D/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
OUT="${OUT:-/tmp/permjit-out}"
mkdir -p "$OUT"
K="$D/instances/15puzzle/korf100.txt"
cache=/tmp/pdb-cache
rm -rf "$cache"
runs=$(mktemp -d)
echo "commit $(cat "$D/COMMIT"), $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
run() {  # run NAME SOLVE-ARGS...
  local name=$1
  shift
  local t0=$SECONDS
  timeout 150 permjit solve "$SPEC" -i "$K" "$@" --json --quiet --cache-dir "$cache" > "$runs/$name.jsonl" 2> "$runs/$name.err"
  echo "$name: rc $?, $((SECONDS - t0)) s wall; $(tail -1 "$runs/$name.jsonl" | cut -c1-600) $(tail -c 300 "$runs/$name.err")"
}
run ida-build --records 1-100 --skeleton ida
for k in 1 2 3; do run ida-cached-$k --records 1-100 --skeleton ida; done
if [[ -z "${PDB_QUICK:-}" ]]; then
  run ida-thread --records 1-100 --skeleton ida-thread
  run ida-manhattan --records 1-100 --skeleton ida --param pdb=0
fi
for sk in cpu ida ida-thread; do run diff-$sk --records 9,12,42,79 --skeleton $sk --all-solutions; done
python3 - "$runs" "$D" "$OUT" <<'PY' | tee "$OUT/pdb_korf100_checks.txt"
import json, sys, os
out, d, dest = sys.argv[1], sys.argv[2], sys.argv[3]
with open(os.path.join(dest, "pdb_korf100_runs.jsonl"), "w") as f:
    for name in sorted(os.listdir(out)):
        if name.endswith(".jsonl"):
            for l in open(os.path.join(out, name)):
                if l.strip().startswith("{"):
                    f.write(json.dumps({"run": name[:-6], **json.loads(l)}) + "\n")
def records(name):
    try:
        rows = [json.loads(l) for l in open(os.path.join(out, name + ".jsonl")) if l.strip().startswith("{")]
    except (OSError, ValueError):
        return []
    return [r for r in rows if "summary" not in r]
cpu = records("diff-cpu")
for sk in ("ida", "ida-thread"):
    other = records("diff-" + sk)
    same = len(cpu) == len(other) == 4 and all(
        [(i["limit"], i["expanded"], i["evaluated"], i["solutions"]) for i in a["iterations"]] ==
        [(i["limit"], i["expanded"], i["evaluated"], i["solutions"]) for i in b["iterations"]]
        for a, b in zip(cpu, other))
    print(f"node counts per iteration, cpu vs {sk} (records 9, 12, 42, 79, --all-solutions): {'same' if same else 'DIFFERENT'}")
opt = [int(x) for x in open(os.path.join(d, "instances/15puzzle/korf100_optimal.txt")).read().split()]
for name in ("ida-build", "ida-cached-1", "ida-thread", "ida-manhattan"):
    rs = records(name)
    if not os.path.exists(os.path.join(out, name + ".jsonl")):
        print(f"{name}: not run")
        continue
    ok = len(rs) == 100 and all(r["cost"] == opt[r["record"] - 1] and len(r["path"]) == opt[r["record"] - 1] for r in rs)
    print(f"{name}: {len(rs)} records, every length optimal: {ok}")
PY
