#!/usr/bin/env python3
"""OR-Tools CP-SAT on the TSPLIB ATSPs, the peer of bench/device/atsp_lagrange.sh (issue 45).

One model per instance: a Boolean per arc i -> j (i != j) and AddCircuit over them, the
objective the sum of the chosen arcs' costs; `--workers` search workers (16: the device
host's cores), a time limit each. What is reported is what the solver says: the status
(OPTIMAL is a proof), the best tour's cost, its best bound, and the wall time of Solve()
alone (the model's build is timed apart). The optimum from atsp_optimal.csv is put
beside it, and a claimed optimum that differs from it fails the script.

  python3 bench/device/atsp_cpsat.py --out FILE.jsonl [--workers 16] [--limit 60] NAME...

OR-Tools is not on the device image: carry the wheels (/.whl, docs/measuring.md).
"""
import argparse
import csv
import json
import os
import sys
import time


def read_tsplib(path):
    """The full matrix of an EXPLICIT FULL_MATRIX TSPLIB file."""
    n = None
    words = []
    in_section = False
    with open(path) as f:
        for line in f:
            s = line.strip()
            if not in_section:
                if s.startswith("DIMENSION"):
                    n = int(s.split(":")[1])
                elif s.startswith("EDGE_WEIGHT_FORMAT") and "FULL_MATRIX" not in s:
                    raise SystemExit(f"{path}: only FULL_MATRIX is read")
                elif s.startswith("EDGE_WEIGHT_SECTION"):
                    in_section = True
                continue
            if s == "EOF":
                break
            words.extend(s.split())
    if n is None or len(words) < n * n:
        raise SystemExit(f"{path}: DIMENSION {n} and {len(words)} weights")
    w = [int(x) for x in words[: n * n]]
    return [w[i * n:(i + 1) * n] for i in range(n)]


def solve(dist, workers, limit):
    from ortools.sat.python import cp_model

    n = len(dist)
    t0 = time.monotonic()
    m = cp_model.CpModel()
    arcs, terms = [], []
    for i in range(n):
        for j in range(n):
            if i != j:
                x = m.NewBoolVar(f"x{i}_{j}")
                arcs.append((i, j, x))
                terms.append(dist[i][j] * x)
    m.AddCircuit(arcs)
    m.Minimize(sum(terms))
    s = cp_model.CpSolver()
    s.parameters.num_search_workers = workers
    s.parameters.max_time_in_seconds = limit
    build_s = time.monotonic() - t0
    t1 = time.monotonic()
    status = s.Solve(m)
    wall = time.monotonic() - t1
    found = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    return {
        "status": s.StatusName(status),
        "proved": status == cp_model.OPTIMAL,
        "objective": int(s.ObjectiveValue()) if found else None,
        "bound": int(s.BestObjectiveBound()) if found else None,
        "solve_s": wall,
        "build_s": build_s,
        "solver_wall_s": s.WallTime(),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("names", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--workers", type=int, default=16)
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--instances", default=os.environ.get("PERMJIT_INSTANCES_DIR", "../shared/instances"))
    a = ap.parse_args()
    import ortools

    optimum = {}
    with open(os.path.join(a.instances, "atsp", "atsp_optimal.csv")) as f:
        for row in csv.DictReader(f):
            optimum[row["instance"]] = int(row["optimal_tour_cost"])
    wrong = 0
    with open(a.out, "a") as out:
        for name in a.names:
            dist = read_tsplib(os.path.join(a.instances, "atsp", name + ".atsp"))
            r = {"instance": name, "solver": "cp-sat", "version": ortools.__version__, "workers": a.workers,
                 "limit_s": a.limit, "n": len(dist), "optimum": optimum.get(name), **solve(dist, a.workers, a.limit)}
            if r["proved"] and r["optimum"] is not None and r["objective"] != r["optimum"]:
                wrong += 1
            out.write(json.dumps(r) + "\n")
            out.flush()
            print(f"{name:8s} n={r['n']:3d} {r['status']:9s} objective {r['objective']} bound {r['bound']} "
                  f"(optimum {r['optimum']}) solve {r['solve_s']:.3f} s, model {r['build_s']:.3f} s", flush=True)
    if wrong:
        sys.exit(f"{wrong} claimed optimum(s) differ from atsp_optimal.csv")


if __name__ == "__main__":
    main()
