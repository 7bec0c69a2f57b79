#!/usr/bin/env python3
"""Prints a results file (JSON lines from bench/run.py) as a markdown table: one row per
configuration, with the median of its runs.

    python3 bench/summarize.py bench/results/FILE.jsonl [--plot out.png]
"""
import argparse
import json
import statistics
from collections import OrderedDict


def key(j):
    # The options after --json, less --instance PATH and --param (shown in their columns).
    words = j.get("command", "").split(" --json", 1)[-1].split()
    kept, skip = [], False
    for w in words:
        if skip:
            skip = False
        elif w in ("--instance", "--param"):
            skip = True
        else:
            kept.append(w)
    args = " ".join(kept)
    inst = (j.get("instance") or "").rsplit("/", 1)[-1]
    if "record" in j:  # one record of a --records run (older files: --record K in the options)
        inst += f" #{j['record']}"
    params = " ".join(f"{k}={v}" for k, v in j["params"].items() if k != "lb" or j["problem"] == "qap")
    return (j["problem"], inst, params, j["skeleton"], args)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results")
    ap.add_argument("--plot", help="write a PNG bar chart of kernel (GPU) or search (CPU) rates")
    opts = ap.parse_args()
    groups = OrderedDict()
    stopped = 0
    summaries = []
    for line in open(opts.results):
        j = json.loads(line)
        if j.get("timed_out"):  # a run stopped at its time limit has no figures
            stopped += 1
            continue
        if "summary" in j:  # the end of a --records run: printed after the table
            summaries.append(j)
            continue
        groups.setdefault(key(j), []).append(j)
    if stopped:
        print(f"({stopped} run(s) stopped at their time limit are left out; bench/sensitivity.py counts them)\n")
    print("| problem | instance | params | skeleton | options | runs | result | evaluated | d_cpu | "
          "total s | search s | host s | kernels s | evaluated/s (kernels) | evaluated/s (search) |")
    print("|" + "---|" * 15)
    rows = []
    for (prob, inst, params, sk, args), runs in groups.items():
        med = lambda f: statistics.median(f(r) for r in runs)
        t = lambda name: med(lambda r: r["time_s"].get(name, 0.0))
        result = runs[0]["cost"] if "cost" in runs[0] else runs[0].get("solutions", runs[0].get("objective"))
        ev = med(lambda r: r["nodes"]["evaluated"])
        kern = t("kernels")
        rate_k = ev / kern if kern else 0
        rate_s = ev / t("search") if t("search") else 0
        print(f"| {prob} | {inst} | {params} | {sk} | {args} | {len(runs)} | {result} | {ev:.4g} | "
              f"{runs[0]['frontier_depth']} | {t('total'):.3f} | {t('search'):.3f} | {t('host'):.3f} | "
              f"{kern:.3f} | {rate_k:.3g} | {rate_s:.3g} |")
        rows.append((f"{prob} {inst} {params} {sk} {args}".strip(), rate_k or rate_s))
    for j in summaries:
        s = j["summary"]
        print(f"\n{s['problem']} {s['skeleton']} on {s['device']}: {s['records']} records in one process, "
              f"search {s['search_s']:.3f} s in all, spec+generate {s['generate_s']:.3f} s, "
              f"compile {s['compile_s']:.3f} s ({'cache hit' if s['cache_hit'] else 'compiled'}), "
              f"wall {s['wall_s']:.3f} s ({j.get('command', '')})")
    if opts.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(11, 0.4 * len(rows) + 1.2))
        ax.barh([r[0] for r in rows], [r[1] for r in rows])
        ax.set_xscale("log")
        ax.set_xlabel("evaluated nodes/s (kernel time on GPU, search time on CPU)")
        ax.invert_yaxis()
        fig.tight_layout()
        fig.savefig(opts.plot, dpi=100)


if __name__ == "__main__":
    main()
