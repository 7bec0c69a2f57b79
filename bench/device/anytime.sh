#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried: anytime answers
# (docs/reliability.md, "Partial answers"). ta051 (50x20 flowshop, the defaults: ivm)
# with --time-limit S and a checkpoint, then its checkpoint resumed for S more; an
# unsolvable 8-puzzle and Korf #88 with ida and a 1 s limit. Each result's JSON in $OUT,
# with its wall time; a summary line per run in $OUT/anytime.jsonl.
# Usage: bash bench/device/anytime.sh [S]   (default 10)
set -uo pipefail
source bench/device/env.sh
OUT="${OUT:-/tmp/permjit-out}"
mkdir -p "$OUT"
S="${1:-10}"
I=.device-bin/instances
commit=$(cat .device-bin/COMMIT 2>/dev/null | tr -d '\n')
printf '1 2 3 4 5 6 8 7 0\n' > "$OUT/p8_unsolvable.txt"
run() {  # name, then the solve arguments
  local name=$1; shift
  local t0=$(date +%s.%N)
  permjit solve "$@" --json > "$OUT/$name.json" 2> "$OUT/$name.log"
  local rc=$?
  local wall=$(echo "$(date +%s.%N) - $t0" | bc)
  python3 - "$name" "$rc" "$wall" "$OUT/$name.json" "$commit" "$*" >> "$OUT/anytime.jsonl" <<'PY'
import json, sys
name, rc, wall, path, commit, args = sys.argv[1:7]
row = {"run": name, "exit": int(rc), "wall_s": float(wall), "commit": commit, "device": "nvidia-h100-x1", "args": args}
try:
    j = json.load(open(path))
    row.update({k: j.get(k) for k in ("skeleton", "complete", "objective", "cost", "time_limit_s", "partial")})
    row["warm_start"] = (j.get("warm_start") or {}).get("objective")
    row["search_s"] = j["time_s"]["search"]
    row["compile_s"] = j["time_s"]["compile"]
    row["evaluated"] = j["nodes"]["evaluated"]
except Exception as e:
    row["error"] = repr(e)
print(json.dumps(row))
PY
  tail -n 1 "$OUT/anytime.jsonl"
}
run ta051_first problems/flowshop.toml -i "$I/flowshop/ta051.txt" --time-limit "$S" --checkpoint "$OUT/ta051.ckpt"
run ta051_resumed problems/flowshop.toml -i "$I/flowshop/ta051.txt" --time-limit "$S" --resume "$OUT/ta051.ckpt" \
  --checkpoint "$OUT/ta051.ckpt"
run p8_unsolvable_ida problems/puzzle15.toml -i "$OUT/p8_unsolvable.txt" --param w=3 --skeleton ida --time-limit 1
run korf88_ida problems/puzzle15.toml -i "$I/15puzzle/korf100.txt" --record 88 --skeleton ida --time-limit 1
