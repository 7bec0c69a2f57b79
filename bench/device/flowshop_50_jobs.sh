#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried: Taillard's
# 50-job instances with the flowshop defaults (ivm, two ends, LB1 then LB2, the warm
# start) from scratch, each for at most FS50_SECONDS (default 25) of wall time. A run
# that ends proved its answer (the JSON result); one stopped by SIGINT leaves its last
# progress line: the incumbent, nodes/s, and how much of the interval space it covered.
# One JSON line per instance in $OUT/flowshop-50-jobs.jsonl, the logs beside it.
# Usage: bash bench/device/flowshop_50_jobs.sh [ta041 ...]   (default: ta041-ta060)
set -uo pipefail
source bench/device/env.sh
OUT="${OUT:-/tmp/permjit-out}"
mkdir -p "$OUT"
I=.device-bin/instances/flowshop
seconds="${FS50_SECONDS:-25}"
names=("$@")
[ ${#names[@]} -eq 0 ] && names=(ta041 ta042 ta043 ta044 ta045 ta046 ta047 ta048 ta049 ta050
                                 ta051 ta052 ta053 ta054 ta055 ta056 ta057 ta058 ta059 ta060)
commit=$(cat .device-bin/COMMIT 2>/dev/null | tr -d '\n')
for i in "${names[@]}"; do
  timeout -s INT "$seconds" permjit solve problems/flowshop.toml -i "$I/$i.txt" --skeleton ivm --json --progress \
    --checkpoint "$OUT/$i.ckpt" --checkpoint-every 600 > "$OUT/$i.json" 2> "$OUT/$i.log"
  status=$?
  python3 - "$i" "$status" "$seconds" "$OUT/$i.json" "$OUT/$i.log" "$I/taillard_makespans.csv" "$commit" \
    >> "$OUT/flowshop-50-jobs.jsonl" <<'PY'
import csv, json, re, sys
name, status, seconds, result, log, table, commit = sys.argv[1:8]
known = {r["instance"]: r for r in csv.DictReader(open(table))}[name]
row = {"instance": name, "jobs": int(known["jobs"]), "machines": int(known["machines"]),
       "best_known": int(known["best_known_makespan"]), "limit_s": float(seconds), "exit": int(status),
       "commit": commit, "device": "nvidia-h100-x1", "params": "defaults (branching=2, lb=0), --skeleton ivm"}
text = open(result).read().strip()
if int(status) == 0 and text:
    r = json.loads(text)
    row.update(proved=bool(r["complete"]), objective=r["objective"], search_s=r["time_s"]["search"],
               total_s=r["time_s"]["total"], nvrtc_s=r["compile_s"]["nvrtc"], evaluated=r["nodes"]["evaluated"],
               warm_start=r.get("warm_start"))
else:
    lines = [l for l in open(log) if l.startswith("ivm ")]
    row["proved"] = False
    if lines:
        m = re.search(r"([\d.]+)% explored\s+([\d.e+]+) nodes/s\s+incumbent (\S+)\s+([\d.]+) s elapsed", lines[-1])
        if m:
            row.update(explored_pct=float(m.group(1)), nodes_per_s=float(m.group(2)),
                       incumbent=None if m.group(3) == "none" else int(m.group(3)), search_elapsed_s=float(m.group(4)))
    row["last_progress"] = lines[-1].strip() if lines else open(log).read()[-300:]
print(json.dumps(row))
PY
  tail -1 "$OUT/flowshop-50-jobs.jsonl" | cut -c1-400
  { echo "== $i (exit $status)"; tail -5 "$OUT/$i.log"; } >> "$OUT/flowshop-50-jobs.log"
  rm -f "$OUT/$i.ckpt" "$OUT/$i.json" "$OUT/$i.log"
done
