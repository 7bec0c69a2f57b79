#!/usr/bin/env python3
"""The regression suite's judge (bench/device/regress.sh).

    regress.py compare RUNS.jsonl --baseline BASELINE.json [--write-baseline OUT.json
                       --kind KIND --commit COMMIT] [--tolerance 0.10] [--flagged FILE]
    regress.py paired PAIRS.jsonl --baseline BASELINE.json [--tolerance 0.10] [--flagged FILE]

RUNS holds one JSON line per run (permjit's --json with the labels case, metric and
round). For each case the median over its rounds is its figure:
  search   time_s.search (seconds; lower is better)
  search-any  the same, for a run whose tree depends on timing (a decision that stops
           at the first solution it meets): its node counts are not compared
  compile  time_s.compile (seconds; lower is better)
  rate     evaluated nodes per search second (higher is better), for a run that a time
           limit stops, whose nodes depend on the clock.
A case fails when its figure is worse than the baseline's by more than TOLERANCE of it,
by more than the baseline's own run-to-run spread (max - min of its rounds: a difference
smaller than the spread of one build against itself is noise) and by more than
NOISE_FLOOR seconds (a process's start and a kernel launch move a 15 ms case by a few
ms); or (for
search and compile figures: a fixed tree) when its node counts differ from the
baseline's, or when it ran in the baseline and has no run now (it failed or timed out).
A case the baseline lacks is listed as new. Exit status 1 when any case fails.

`compare` writes the names of the cases it flagged as slower to --flagged FILE (one a
line), and exits 1 when only such cases failed, 2 when a case's node counts differ or a
case did not finish. The committed baseline was measured on another machine of the same kind, whose
host may be faster or slower: a case whose time is mostly the host's (a frontier built on
the host, a process's start) moves by tens of milliseconds from machine to machine with
the same code. So a flagged case is run again, paired: the baseline commit's build and
this one alternately, K times each, in the same call (regress.sh, when a build of the
baseline's commit is carried). `paired` judges those runs: a case is slower when the
median of its K ratios (this build's figure over the baseline build's, run beside it) is
worse than 1 + TOLERANCE; node counts must be equal between the two builds and to the
committed baseline's. Exit status 1 when any case is slower or differs in its counts.

The baseline is a committed file, written only on purpose (REGRESS_UPDATE=1 on the device
writes a candidate beside the results; commit it with the reason in the message).
"""
import argparse
import datetime
import json
import statistics
import sys


def figure(run, metric):
    t = run["time_s"]
    if metric in ("search", "search-any"):
        return t["search"]
    if metric == "compile":
        return t["compile"]
    if metric == "rate":
        return run["nodes"]["evaluated"] / t["search"] if t["search"] > 0 else 0.0
    raise ValueError("unknown metric " + metric)


def summarize(path):
    """case -> {metric, median, runs, evaluated, expanded, objective, count}"""
    by_case = {}
    with open(path) as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                by_case.setdefault(r["case"], []).append(r)
    out = {}
    for case, runs in by_case.items():
        metric = runs[0]["metric"]
        values = [figure(r, metric) for r in runs]
        nodes = sorted({(r["nodes"]["expanded"], r["nodes"]["evaluated"]) for r in runs})
        out[case] = {
            "metric": metric,
            "median": statistics.median(values),
            "runs": values,
            # A fixed tree gives one pair of counts in every round; a time-limited run does not.
            "nodes": [list(n) for n in nodes] if metric in ("search", "compile") else None,
            "answer": runs[0].get("objective", runs[0].get("solutions")),
        }
    return out


def worse_by(metric, now, base):
    """How much worse `now` is than `base`, as a fraction (negative: better)."""
    if base <= 0:
        return 0.0
    return (base - now) / base if metric == "rate" else (now - base) / base


def beyond_noise(metric, now, b, floor):
    """Whether `now` is worse than the baseline case `b` by more than its spread and the floor."""
    runs = b.get("runs") or [b["median"]]
    spread = max(runs) - min(runs)
    gap = b["median"] - now if metric == "rate" else now - b["median"]
    return gap > spread and (metric == "rate" or gap > floor)


def judge_pairs(path, base, tolerance, only=None):
    """The paired re-check: case -> (median ratio, [ratios], failures), for the cases in
    `only` (the flagged ones; a flagged compile case runs its cold and warm sibling too)."""
    by_case = {}
    with open(path) as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                if only is None or r["case"] in only:
                    by_case.setdefault(r["case"], {}).setdefault(r["build"], []).append(r)
    out = {}
    for case, builds in sorted(by_case.items()):
        head, old = builds.get("head", []), builds.get("base", [])
        metric = (head or old)[0]["metric"]
        failures = []
        pairs = [(h, o) for h, o in zip(sorted(head, key=lambda r: int(r["pair"])),
                                        sorted(old, key=lambda r: int(r["pair"])))]
        if not pairs:
            out[case] = (None, [], [f"{case}: no pair finished (failed or timed out)"])
            continue
        # A ratio above 1 is worse, whatever the metric's direction.
        ratios = []
        for h, o in pairs:
            fh, fo = figure(h, metric), figure(o, metric)
            ratios.append((fo / fh if fh > 0 else float("inf")) if metric == "rate" else (fh / fo if fo > 0 else 1.0))
        ratio = statistics.median(ratios)
        if ratio > 1 + tolerance:
            failures.append(f"{case}: {metric} {ratio:.3f} times the baseline build's, run beside it "
                            f"({(ratio - 1) * 100:+.1f}%, median of {len(ratios)} pairs)")
        if metric in ("search", "compile"):
            counts = sorted({(r["nodes"]["expanded"], r["nodes"]["evaluated"]) for r in head + old})
            b = base.get(case)
            if len(counts) > 1:
                failures.append(f"{case}: node counts differ between the two builds or runs: {counts}")
            elif b is not None and b.get("nodes") is not None and [list(c) for c in counts] != b["nodes"]:
                failures.append(f"{case}: node counts {counts} against the baseline's {b['nodes']}")
        out[case] = (ratio, ratios, failures)
    return out


def paired_main(a):
    base = {}
    try:
        with open(a.baseline) as f:
            base = json.load(f)["cases"]
    except FileNotFoundError:
        pass
    failures = []
    print(f"\npaired re-check of the flagged cases (this build over the baseline's commit, run alternately):")
    print(f"{'case':32} {'ratio':>7}  pairs")
    only = None
    if a.flagged:
        with open(a.flagged) as f:
            only = {line.strip() for line in f if line.strip()}
    for case, (ratio, ratios, fails) in judge_pairs(a.runs, base, a.tolerance, only).items():
        shown = " ".join(f"{v:.3f}" for v in ratios)
        verdict = "  SLOWER" if any("times the baseline" in f for f in fails) else "  cleared" if ratio else ""
        print(f"{case:32} {ratio if ratio is not None else float('nan'):7.3f}  {shown}{verdict}")
        failures += fails
    if failures:
        print(f"\n{len(failures)} regression(s) confirmed by the paired runs:")
        for f in failures:
            print("  " + f)
        return 1
    print(f"\nno flagged case more than {a.tolerance * 100:.0f}% slower than the baseline's build beside it")
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("command", choices=["compare", "paired"])
    ap.add_argument("runs")
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--tolerance", type=float, default=0.10)
    ap.add_argument("--noise-floor", type=float, default=0.005, help="seconds")
    ap.add_argument("--write-baseline")
    ap.add_argument("--kind", default="unknown")
    ap.add_argument("--commit", default="unknown")
    ap.add_argument("--only-run", action="store_true", help="compare the cases that ran (a CASES subset)")
    ap.add_argument("--flagged", help="compare: write the names of the cases flagged as slower here; "
                    "paired: judge those cases alone")
    a = ap.parse_args()
    if a.command == "paired":
        return paired_main(a)

    now = summarize(a.runs)
    try:
        with open(a.baseline) as f:
            base_doc = json.load(f)
        base = base_doc["cases"]
        print(f"baseline {a.baseline}: commit {base_doc.get('commit')}, {base_doc.get('date')}, "
              f"{base_doc.get('device')}")
    except FileNotFoundError:
        base_doc, base = None, {}
        print(f"no baseline at {a.baseline}: every case is new")

    failures = []
    slower = []
    print(f"{'case':32} {'metric':8} {'baseline':>11} {'now':>11} {'change':>8}  runs")
    for case in sorted(set(now) | set(base)):
        n, b = now.get(case), base.get(case)
        if n is None and a.only_run:
            continue
        if n is None:
            print(f"{case:32} {b['metric']:8} {b['median']:11.4g} {'-':>11} {'':>8}  no run finished")
            failures.append(f"{case}: no run finished (failed or timed out)")
            continue
        runs = " ".join(f"{v:.4g}" for v in n["runs"])
        if b is None:
            print(f"{case:32} {n['metric']:8} {'-':>11} {n['median']:11.4g} {'new':>8}  {runs}")
            continue
        change = worse_by(n["metric"], n["median"], b["median"])
        flag = ""
        if change > a.tolerance and beyond_noise(n["metric"], n["median"], b, a.noise_floor):
            flag = "  SLOWER"
            slower.append(case)
            failures.append(f"{case}: {n['metric']} {n['median']:.4g} against {b['median']:.4g} "
                            f"({change * 100:+.1f}% worse)")
        elif change > a.tolerance:
            flag = "  (within noise)"
        if n["nodes"] is not None and b.get("nodes") is not None and n["nodes"] != b["nodes"]:
            flag += "  NODES"
            failures.append(f"{case}: node counts {n['nodes']} against the baseline's {b['nodes']}")
        if len(n["nodes"] or []) > 1:
            flag += "  NODES-VARY"
            failures.append(f"{case}: node counts differ between rounds: {n['nodes']}")
        print(f"{case:32} {n['metric']:8} {b['median']:11.4g} {n['median']:11.4g} {change * 100:+7.1f}%  {runs}{flag}")

    if a.write_baseline:
        doc = {
            "device": a.kind,
            "commit": a.commit,
            "date": datetime.date.today().isoformat(),
            "tolerance": a.tolerance,
            "noise_floor_s": a.noise_floor,
            "cases": now,
        }
        with open(a.write_baseline, "w") as f:
            json.dump(doc, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"candidate baseline written to {a.write_baseline}")

    if a.flagged:
        with open(a.flagged, "w") as f:
            f.write("".join(c + "\n" for c in slower))
    if failures:
        print(f"\n{len(failures)} regression(s):")
        for f in failures:
            print("  " + f)
        # 1: slower cases alone (a paired re-check may clear them); 2: counts that differ
        # or cases that did not finish, which no re-check clears.
        return 1 if len(failures) == len(slower) else 2
    print(f"\nno case more than {a.tolerance * 100:.0f}% worse than the baseline")
    return 0


if __name__ == "__main__":
    sys.exit(main())
