#!/usr/bin/env bash
# Issue 46 on the 4-GPU machine (nvidia-h100-x4 or nvidia-h200-x4), from the repository
# root with .device-bin carried (bench/device/prepare.sh here), in one device call:
#   [IDA_GPUS=G] bash bench/device/ida_24puzzle_gpus.sh [BUDGET_S]   (default 560: the call's 600 less a margin)
# G (default 4) is the number of GPUs that `--gpus 4` below stands for, on a machine with fewer.
# 1. `tables`: korf_taylor10.txt records 1-10 on `ida --gpus 4` with --time-limit 2 each,
#    in one process: the first run builds puzzle24.toml's tables (their build time is
#    reported apart: the summary's pattern_databases) and compiles; every record's start
#    h, the iterations it finished and the bound it proved in 2 s; easy records are
#    solved here already.
# 2. `speedup`: the easiest record left (smallest listed optimum - proven bound) on
#    --gpus 1 and on --gpus 4 with the same time limit: per complete iteration (the same
#    limit on both) the seconds of each, and the node rate.
# 3. `records`: the records not solved yet, easiest first, each on --gpus 4 with a time
#    limit of what is left of the budget; a record proved frees the rest for the next.
# (The `tables` run's wall time is its process's, shared by its ten records.)
# Per record: the optimal length against the listed optimum, nodes, node rate, search
# and wall time; for one not proved, its proven bound and a projection from its
# iterations' growth (each +2 of the limit multiplies the nodes by the last ratio) of
# the nodes and seconds on 4 GPUs to prove it. Every step runs under `timeout`.
# Writes $OUT/runs.jsonl (every result, labelled), $OUT/records.jsonl (one line per
# record), $OUT/speedup.json and $OUT/summary.txt.
set -uo pipefail
BUDGET="${1:-560}"
source bench/device/env.sh
OUT="${OUT:-/tmp/permjit-out}"
mkdir -p "$OUT"
export BUDGET OUT
echo "commit $(cat .device-bin/COMMIT), $(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | tr '\n' ' ')"
python3 - <<'PY' 2>&1 | tee "$OUT/summary.txt"
import json, os, subprocess, time

t_start = time.monotonic()
budget = float(os.environ["BUDGET"])
G = int(os.environ.get("IDA_GPUS", "4"))  # the GPUs of `ida --gpus`
out = os.environ["OUT"]
inst = os.path.join(os.environ["PERMJIT_INSTANCES_DIR"], "24puzzle")
boards = os.path.join(inst, "korf_taylor10.txt")
optimum = [int(x) for x in open(os.path.join(inst, "korf_taylor10_optimal.txt")).read().split()]
cache = os.environ.get("PERMJIT_CACHE_DIR", "/tmp/permjit-cache")
runs = open(os.path.join(out, "runs.jsonl"), "w")

def left():
    return budget - (time.monotonic() - t_start)

def solve(label, timeout_s, *args):
    """One permjit process under `timeout`: its JSON lines (labelled into runs.jsonl), rc, wall."""
    cmd = ["timeout", str(int(max(1, timeout_s))), "permjit", "solve", "problems/puzzle24.toml", "-i", boards,
           "--skeleton", "ida", "--json", "--quiet", "--cache-dir", cache, *args]
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    rows = []
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            try:
                rows.append(json.loads(line))
            except ValueError:
                pass
    for r in rows:
        runs.write(json.dumps({"run": label, "wall_s": wall, **r}) + "\n")
    runs.flush()
    print(f"{label}: rc {p.returncode}, {wall:.1f} s wall" + (f"; stderr: {p.stderr.strip()[-400:]}" if p.returncode else ""))
    return rows, p.returncode, wall

def records_of(rows, record=None):
    """The result rows; a run of one record (--record K) says not which: `record` does."""
    rs = [r for r in rows if "summary" not in r]
    if record is not None:
        for r in rs:
            r.setdefault("record", record)
    return rs

def full_iterations(r):
    """The iterations that ran to their end: all but the last, unless the search ended by exhausting."""
    its = r.get("iterations", [])
    return its[:-1] if its else []

def projection(r):
    """Nodes and seconds to finish the record on these GPUs, from its finished iterations' growth."""
    its = full_iterations(r)
    opt = optimum[r["record"] - 1]
    bound = (r.get("partial") or {}).get("proven_bound")
    if len(its) < 2 or bound is None:
        return None
    last, before = its[-1], its[-2]
    ratio = last["expanded"] / max(1, before["expanded"])
    rate = last["expanded"] / max(1e-9, last["seconds"])
    nodes, n = 0.0, float(last["expanded"])
    for _ in range(last["limit"] + 2, opt + 1, 2):  # the 24-puzzle's limits rise by 2
        n *= ratio
        nodes += n
    # At most: the last iteration counted whole, where the first solution ends it early.
    return {"ratio_per_step": round(ratio, 2), "rate_per_s": round(rate), "nodes_at_most": nodes,
            "seconds_at_most": round(nodes / rate, 1), "from_limit": last["limit"], "bound": bound}

def describe(r, wall, gpus):
    opt = optimum[r["record"] - 1]
    t = r["time_s"]
    d = {"record": r["record"], "gpus": gpus, "device": r.get("device"), "optimum": opt, "start_h": r.get("start_h"),
         "proved": bool(r.get("found")), "cost": r.get("cost"),
         "optimal": bool(r.get("found")) and r.get("cost") == opt and len(r.get("path", [])) == opt,
         "expanded": r["nodes"]["expanded"], "evaluated": r["nodes"]["evaluated"],
         "rate_expanded_per_s": round(r["nodes"]["expanded"] / max(1e-9, t["search"])),
         "search_s": t["search"], "kernels_s": t["kernels"], "host_s": t["host"], "wall_s": round(wall, 2),
         "iterations": [(i["limit"], i["expanded"], round(i["seconds"], 3)) for i in r.get("iterations", [])],
         "per_gpu_expanded": (r.get("ida_gpus") or {}).get("expanded"),
         "per_gpu_kernel_s": (r.get("ida_gpus") or {}).get("kernel_s")}
    if not r.get("found"):
        d["proven_bound"] = (r.get("partial") or {}).get("proven_bound")
        d["projection"] = projection(r)
    return d

# 1. The tables (built on the first run), every record's h and a first bound.
rows, rc, wall = solve("tables", min(400, left() - 60), "--records", "1-10", "--gpus", str(G), "--time-limit", "2")
summary = next((r["summary"] for r in rows if "summary" in r), {})
print("tables:", json.dumps(summary.get("pattern_databases")), "compile", summary.get("t_compile_s", summary.get("compile_s")))
first = {r["record"]: r for r in records_of(rows)}
per_record = {}
for k, r in first.items():
    per_record[k] = describe(r, wall / max(1, len(first)), G)
    print(f"record {k}: h {r.get('start_h')}, optimum {optimum[k - 1]}, " +
          (f"solved: {r.get('cost')}" if r.get("found") else f"bound {per_record[k].get('proven_bound')} in 2 s"))

def gap(k):
    r = first.get(k)
    if r is None:
        return 1e9
    b = (r.get("partial") or {}).get("proven_bound") or r.get("start_h") or 0
    return optimum[k - 1] - b

todo = sorted((k for k in range(1, 11) if not (k in first and first[k].get("found"))), key=gap)
print("order (easiest first):", todo, "gaps", [gap(k) for k in todo])

# 2. The speed-up of G GPUs over 1 on the easiest record left (or record 1 if all were solved).
sp_record = todo[0] if todo else 1
sp_limit = max(5.0, min(40.0, (left() - 120) / 4))
speed = {"record": sp_record, "time_limit_s": sp_limit}
for g in (1, G):
    rows, rc, wall = solve(f"speedup-gpus{g}", sp_limit + 90, "--record", str(sp_record), "--gpus", str(g),
                           "--time-limit", f"{sp_limit:.1f}")
    rs = records_of(rows, sp_record)
    if rs:
        speed[f"gpus{g}"] = describe(rs[0], wall, g)
        speed[f"gpus{g}_full"] = {i["limit"]: (i["expanded"], i["seconds"]) for i in full_iterations(rs[0])}
if G > 1 and "gpus1" in speed and f"gpus{G}" in speed:
    a, b = speed["gpus1_full"], speed[f"gpus{G}_full"]
    common = sorted(set(a) & set(b))
    speed["per_iteration"] = [{"limit": L, "expanded": a[L][0], "same_nodes": a[L][0] == b[L][0],
                               "s_gpus1": round(a[L][1], 3), f"s_gpus{G}": round(b[L][1], 3),
                               "speedup": round(a[L][1] / max(1e-9, b[L][1]), 2)} for L in common]
    speed["rate_speedup"] = round(speed[f"gpus{G}"]["rate_expanded_per_s"] / max(1, speed["gpus1"]["rate_expanded_per_s"]), 2)
    print("speed-up:", json.dumps({k: speed[k] for k in ("record", "time_limit_s", "rate_speedup", "per_iteration")}))
for k in ("gpus1_full", f"gpus{G}_full"):
    speed.pop(k, None)
json.dump(speed, open(os.path.join(out, "speedup.json"), "w"), indent=1)

# 3. The records left, easiest first, each with what is left of the budget (the
# speed-up's record is not run again if G GPUs proved it there).
if speed.get(f"gpus{G}", {}).get("proved"):
    per_record[sp_record] = speed[f"gpus{G}"]
    todo = [k for k in todo if k != sp_record]
for k in todo:
    limit = left() - 30  # process start, tables loaded and uploaded, the stop
    if limit < 15:
        print(f"record {k}: not run ({left():.0f} s left)")
        continue
    rows, rc, wall = solve(f"record{k}", limit + 25, "--record", str(k), "--gpus", str(G), "--time-limit", f"{limit:.0f}")
    rs = records_of(rows, k)
    if rs:
        per_record[k] = describe(rs[0], wall, G)
    d = per_record.get(k, {})
    print(f"record {k}: " + (f"cost {d.get('cost')} (optimum {d.get('optimum')}, optimal {d.get('optimal')}), "
                             if d.get("proved") else f"bound {d.get('proven_bound')}, projection {d.get('projection')}, ") +
          f"{d.get('expanded')} expanded, {d.get('rate_expanded_per_s')}/s, search {d.get('search_s')} s, wall {d.get('wall_s')} s")

with open(os.path.join(out, "records.jsonl"), "w") as f:
    for k in sorted(per_record):
        f.write(json.dumps(per_record[k]) + "\n")
proved = [k for k in sorted(per_record) if per_record[k]["proved"]]
print(f"proved {len(proved)} of 10: {proved}; all optimal: {all(per_record[k]['optimal'] for k in proved)}; "
      f"{time.monotonic() - t_start:.0f} s of {budget:.0f}")
PY
