#!/usr/bin/env python3
"""Tables of an ivm sweep (bench/ivm_sweep.json run by bench/run.py): for each problem,
explorers and trigger, the median search time, kernel time, the share of the search
spent in work-stealing phases (Carneiro Pessoa et al. 2016 Fig. 5), rounds, steals and the node rate
(Carneiro Pessoa et al. 2016 Fig. 3).

    python3 bench/ivm_sweep.py bench/results/2026-11-22-h100-ivm-sweep.jsonl
"""
import argparse
import json
import statistics
from collections import OrderedDict


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results")
    opts = ap.parse_args()
    groups = OrderedDict()
    for line in open(opts.results):
        r = json.loads(line)
        if r.get("skeleton") != "ivm":
            continue
        inst = (r.get("instance") or "").split("/")[-1]
        params = " ".join(f"{k}={v}" for k, v in r["params"].items())
        key = (r["problem"], inst or params, r["ivm"]["explorers"], r["ivm"]["trigger"])
        groups.setdefault(key, []).append(r)
    print("| problem | instance | explorers | trigger | trigger/T | runs | search s | kernels s | "
          "stealing share | rounds | steals | evaluated/s (search) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for (problem, inst, T, trigger), runs in groups.items():
        med = lambda f: statistics.median(f(x) for x in runs)
        search = med(lambda x: x["time_s"]["search"])
        print(f"| {problem} | {inst} | {T} | {trigger} | {trigger / T:.3g} | {len(runs)} | {search:.3f} | "
              f"{med(lambda x: x['time_s']['kernels']):.3f} | "
              f"{100 * med(lambda x: x['ivm']['balance_s'] / x['time_s']['search']):.1f}% | "
              f"{med(lambda x: x['ivm']['rounds']):.0f} | {med(lambda x: x['ivm']['steals']):.0f} | "
              f"{med(lambda x: x['nodes']['evaluated'] / x['time_s']['search']):.3g} |")


if __name__ == "__main__":
    main()
