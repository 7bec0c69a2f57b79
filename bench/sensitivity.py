#!/usr/bin/env python3
"""Seed 000's Table 3 from a sensitivity run (bench/cdp_sensitivity.json): for each
instance, the worst, best and median time over the cutoff depths d_cpu = 3..7 of `dfs`,
and of `cdp` and `rec` with d_gpu = d_cpu + 2, with the relative standard deviation over
those five configurations, and the rates dfs/cdp and dfs/rec.

    python3 bench/sensitivity.py RESULTS.jsonl [--time search|kernels|total]

The time of one configuration is the median of its runs. A run stopped at its time limit
(bench/run.py's `timeout`) counts as the limit and is marked `>`: a worst case and a rate
built on it are lower bounds. Below the table, every configuration's runs, and a check
that every run of an instance explored the same tree (node totals, count or objective):
a benchmark whose trees differ measured a bug, not a configuration.
"""
import argparse
import json
import statistics
from collections import OrderedDict, defaultdict

SKELETONS = ["dfs", "cdp", "rec"]


def option(command, name):
    words = command.split()
    return int(words[words.index(name) + 1]) if name in words else None


def instance_label(j):
    inst = (j.get("instance") or "").rsplit("/", 1)[-1]
    params = " ".join(f"{k}={v}" for k, v in j.get("params", {}).items())
    return f"{j['problem']} {inst or params}".strip()


class Config:
    """The runs of one skeleton at one (d_cpu, d_gpu) on one instance."""

    def __init__(self):
        self.times, self.censored, self.trees, self.dgpu = [], 0, [], None

    def add(self, j, which):
        if j.get("timed_out"):
            self.times.append(float(j["timeout_s"]))
            self.censored += 1
            return
        self.times.append(float(j["time_s"][which]))
        self.trees.append((j["nodes"]["expanded"], j["nodes"]["evaluated"], j.get("solutions"), j.get("objective")))
        if j.get("cdp"):
            self.dgpu = j["cdp"]["dgpu"]

    def time(self):
        return statistics.median(self.times)

    def lower_bound(self):
        # The median is only a lower bound once half the runs or more were stopped.
        return self.censored * 2 >= len(self.times)


def fmt_time(t, lower):
    return (">" if lower else "") + (f"{t:.3f}" if t < 10 else f"{t:.1f}")


def summarize(configs):
    """Worst, best, median (the third of five) and RSD over the d_cpu configurations."""
    items = sorted(configs.items())
    times = [c.time() for _, c in items]
    worst = max(range(len(items)), key=lambda i: times[i])
    best = min(range(len(items)), key=lambda i: times[i])
    mean = statistics.fmean(times)
    rsd = 100.0 * statistics.pstdev(times) / mean if mean > 0 else 0.0
    label = lambda i: f"{items[i][0]}" + (f"-{items[i][1].dgpu}" if items[i][1].dgpu is not None else "")
    return {
        "worst": (times[worst], items[worst][1].lower_bound(), label(worst)),
        "best": (times[best], items[best][1].lower_bound(), label(best)),
        "median": statistics.median(times),
        "median_at": label(sorted(range(len(items)), key=lambda i: times[i])[len(items) // 2]),
        "rsd": rsd,
        "any_lower": any(c.lower_bound() for _, c in items),
        "n": len(items),
    }


def rate(a, b):
    (ta, la, _), (tb, lb, _) = a, b
    if tb <= 0:
        return "-"
    text = f"{ta / tb:.2f}"
    return (">" + text) if la and not lb else text


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results")
    ap.add_argument("--time", default="search", choices=["search", "kernels", "total"],
                    help="which time of each run (default search: host + transfers + kernels)")
    opts = ap.parse_args()

    data = OrderedDict()  # instance -> skeleton -> dcpu -> Config
    for line in open(opts.results):
        j = json.loads(line)
        sk = j.get("skeleton")
        dcpu = option(j.get("command", ""), "--dcpu")
        if sk not in SKELETONS or dcpu is None:
            continue
        data.setdefault(instance_label(j), defaultdict(dict))[sk].setdefault(dcpu, Config()).add(j, opts.time)

    print(f"Time: `{opts.time}` seconds, the median of each configuration's runs; worst, best and median over "
          "d_cpu = 3..7 (dfs) and (d_cpu, d_cpu + 2) (cdp, rec); RSD = population standard deviation / mean "
          "over those configurations. `>`: a lower bound (runs stopped at their time limit). "
          "In brackets: the d_cpu (or d_cpu-d_gpu) of that time.\n")
    head = ["instance"]
    for part in ["T_worst", "T_best"]:
        head += [f"{part} {s}" for s in SKELETONS] + [f"{part} dfs/cdp", f"{part} dfs/rec"]
    head += [f"T_median {s}" for s in SKELETONS] + [f"RSD% {s}" for s in SKELETONS]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for inst, by_sk in data.items():
        s = {sk: summarize(by_sk[sk]) for sk in SKELETONS if by_sk.get(sk)}
        row = [inst]
        for part in ["worst", "best"]:
            for sk in SKELETONS:
                row.append(f"{fmt_time(s[sk][part][0], s[sk][part][1])} ({s[sk][part][2]})" if sk in s else "-")
            for other in ["cdp", "rec"]:
                row.append(rate(s["dfs"][part], s[other][part]) if "dfs" in s and other in s else "-")
        for sk in SKELETONS:
            row.append(f"{fmt_time(s[sk]['median'], False)} ({s[sk]['median_at']})" if sk in s else "-")
        for sk in SKELETONS:
            row.append((">" if s[sk]["any_lower"] else "") + f"{s[sk]['rsd']:.0f}" if sk in s else "-")
        print("| " + " | ".join(row) + " |")

    print("\n## Every configuration\n")
    print("| instance | skeleton | d_cpu | d_gpu | runs | stopped | median s | min s | max s | evaluated |")
    print("|" + "---|" * 10)
    for inst, by_sk in data.items():
        trees = set()
        for sk in SKELETONS:
            for dcpu, c in sorted(by_sk.get(sk, {}).items()):
                trees.update(c.trees)
                ev = c.trees[0][1] if c.trees else "-"
                print(f"| {inst} | {sk} | {dcpu} | {c.dgpu if c.dgpu is not None else '-'} | {len(c.times)} | "
                      f"{c.censored} | {c.time():.3f} | {min(c.times):.3f} | {max(c.times):.3f} | {ev} |")
        verdict = "identical in every finished run" if len(trees) == 1 else f"DIFFER: {sorted(trees)}"
        print(f"| {inst} | trees | | | | | | | | {verdict} |")


if __name__ == "__main__":
    main()
