#!/usr/bin/env python3
"""The cpu skeleton's thread scaling (issue 22) as a table and a plot.

    python3 bench/cpu_scaling.py RESULTS.jsonl [BITBOARD.jsonl] [--plot out.png]

RESULTS holds the JSON lines of `bench/run.py bench/cpu_scaling.json`; BITBOARD those of
bench/cpu/nqueens_bitboard.c (one line per run). Per configuration and thread count:
the median search time and evaluated nodes per second over the runs, the speedup over
one thread (in time for a complete search, in rate for one stopped by --time-limit),
and whether the node counts of complete runs agree across thread counts (they must: a
count problem, or a fixed --ub). For N-Queens, one thread against the hand-written
counter on the same n.
"""
import argparse
import json
import statistics
from collections import OrderedDict


def config(j):
    """What a run measures, less the thread count."""
    inst = (j.get("instance") or "").rsplit("/", 1)[-1]
    params = " ".join(f"{k}={v}" for k, v in j["params"].items())
    words = j.get("command", "").split(" --json", 1)[-1].split()
    opts, skip = [], False
    for w in words:
        if skip:
            skip = False
        elif w in ("--instance", "--param", "--threads", "--backend"):
            skip = True
        else:
            opts.append(w)
    return (j["problem"], inst, params, " ".join(opts))


def load(path):
    return [json.loads(l) for l in open(path) if l.strip().startswith("{")]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results")
    ap.add_argument("bitboard", nargs="?")
    ap.add_argument("--plot", help="write a PNG: speedup over one thread against threads")
    opts = ap.parse_args()

    groups = OrderedDict()
    for j in load(opts.results):
        if j.get("timed_out") or "summary" in j:
            continue
        groups.setdefault(config(j), OrderedDict()).setdefault(j["threads"], []).append(j)
    board = {}
    if opts.bitboard:
        for j in load(opts.bitboard):
            board.setdefault(j["params"]["n"], []).append(j)

    med = statistics.median
    print("| problem | instance | params | options | threads | runs | complete | evaluated | search s | "
          "evaluated/s | speedup | counts |")
    print("|" + "---|" * 12)
    curves = OrderedDict()
    for (prob, inst, params, args), by_threads in groups.items():
        base = None
        complete_counts = set()
        for threads in sorted(by_threads):
            runs = by_threads[threads]
            complete = all(r.get("complete", True) for r in runs)
            secs = med(r["time_s"]["search"] for r in runs)
            rate = med(r["evaluated_per_s"] for r in runs)
            ev = med(r["nodes"]["evaluated"] for r in runs)
            if complete:
                complete_counts.update((r["nodes"]["expanded"], r["nodes"]["evaluated"]) for r in runs)
            # A complete search is timed; one stopped by its time limit is a rate.
            measure = secs if complete else 1.0 / rate
            if threads == 1:
                base = measure
            speedup = base / measure if base else float("nan")
            curves.setdefault((prob, inst, params, args), []).append((threads, speedup))
            agree = "" if not complete else ("same" if len(complete_counts) == 1 else "DIFFER")
            print(f"| {prob} | {inst} | {params} | {args} | {threads} | {len(runs)} | {'yes' if complete else 'no'} | "
                  f"{ev:.4g} | {secs:.3f} | {rate:.3g} | {speedup:.2f} | {agree} |")
    if board:
        print("\n| n | hand-written s (median) | runs | cpu x1 search s | ratio | counts |")
        print("|---|---|---|---|---|---|")
        for n, runs in sorted(board.items()):
            hand = med(r["time_s"]["search"] for r in runs)
            ours = [by_t.get(1, []) for (prob, _, params, _), by_t in groups.items()
                    if prob == "nqueens" and params == f"n={n}"]
            ours = ours[0] if ours else []
            if not ours:
                print(f"| {n} | {hand:.3f} | {len(runs)} | | | |")
                continue
            mine = med(r["time_s"]["search"] for r in ours)
            same = all(r["nodes"]["evaluated"] == runs[0]["nodes"]["evaluated"] for r in ours)
            print(f"| {n} | {hand:.3f} | {len(runs)} | {mine:.3f} | {mine / hand:.3f} | {'same' if same else 'DIFFER'} |")

    # Issue 22's bars, where the runs needed are in the files.
    bars = []
    for (prob, inst, params, args), pts in curves.items():
        speed = dict(pts)
        if prob == "nqueens" and params == "n=16" and 1 in speed and 16 in speed:
            bars.append(("N-Queens 16: 16 threads >= 12x one thread", f"{speed[16]:.2f}x", speed[16] >= 12))
        if prob == "nqueens" and params == "n=16":
            ts = sorted(speed)
            worse = [f"{b} < {a}" for a, b in zip(ts, ts[1:]) if speed[b] < speed[a]]
            bars.append(("N-Queens 16: no thread count slower than a smaller one",
                         ", ".join(worse) or "none slower", not worse))
        if prob == "flowshop" and "branching=2" not in params and 1 in speed and 16 in speed:
            bars.append((f"flowshop {inst} forward: 16 threads >= 14x one thread in evaluated/s",
                         f"{speed[16]:.2f}x", speed[16] >= 14))
    for n, runs in sorted(board.items()):
        ours = [by_t.get(1, []) for (prob, _, params, _), by_t in groups.items()
                if prob == "nqueens" and params == f"n={n}"]
        if ours and ours[0]:
            ratio = med(r["time_s"]["search"] for r in ours[0]) / med(r["time_s"]["search"] for r in runs)
            bars.append((f"N-Queens {n}: one thread within 1.15x of the hand-written counter", f"{ratio:.3f}",
                         ratio <= 1.15))
    if bars:
        print("\n| bar (issue 22) | measured | met |")
        print("|---|---|---|")
        for what, got, ok in bars:
            print(f"| {what} | {got} | {'yes' if ok else 'NO'} |")

    if opts.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(7, 5))
        top = max(t for c in curves.values() for t, _ in c)
        ax.plot([1, top], [1, top], color="grey", linestyle="--", label="linear")
        for (prob, inst, params, args), pts in curves.items():
            label = " ".join(x for x in (prob, inst, params, args) if x)
            ax.plot([t for t, _ in pts], [s for _, s in pts], marker="o", label=label)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log", base=2)
        ax.set_xlabel("threads")
        ax.set_ylabel("speedup over one thread")
        ax.set_title("cpu skeleton: thread scaling")
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(opts.plot, dpi=120)


if __name__ == "__main__":
    main()
