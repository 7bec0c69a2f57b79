#!/usr/bin/env python3
"""bench/regress.py's verdicts on made-up runs: what it flags, what the paired re-check
clears or confirms, and its exit statuses (1: slower alone, 2: counts or missing runs)."""
import json
import os
import subprocess
import sys
import tempfile

REGRESS = os.path.join(os.path.dirname(__file__), "..", "..", "bench", "regress.py")


def run(case, metric, search, nodes=(10, 100), **labels):
    return dict(case=case, metric=metric, time_s={"search": search, "compile": 0.1},
                nodes={"expanded": nodes[0], "evaluated": nodes[1]}, objective=7, **labels)


def write(path, rows):
    with open(path, "w") as f:
        f.write("".join(json.dumps(r) + "\n" for r in rows))


def judge(*args):
    p = subprocess.run([sys.executable, REGRESS, *args], capture_output=True, text=True)
    return p.returncode, p.stdout


def main():
    d = tempfile.mkdtemp()
    base = os.path.join(d, "base.json")
    with open(base, "w") as f:
        json.dump({"commit": "b", "cases": {
            "steady": {"metric": "search", "median": 1.0, "runs": [0.99, 1.0, 1.01], "nodes": [[10, 100]]},
            "host-bound": {"metric": "search", "median": 0.20, "runs": [0.19, 0.20, 0.21], "nodes": [[10, 100]]},
        }}, f)
    runs, flagged = os.path.join(d, "runs.jsonl"), os.path.join(d, "flagged.txt")

    # Nothing slower: exit 0, nothing flagged.
    write(runs, [run("steady", "search", 1.02, round=k) for k in (1, 2, 3)] +
          [run("host-bound", "search", 0.205, round=k) for k in (1, 2, 3)])
    rc, out = judge("compare", runs, "--baseline", base, "--flagged", flagged)
    assert rc == 0, out
    assert open(flagged).read() == "", out

    # 25% slower on another machine: flagged, exit 1 (a re-check may clear it).
    write(runs, [run("steady", "search", 1.0, round=k) for k in (1, 2, 3)] +
          [run("host-bound", "search", 0.25, round=k) for k in (1, 2, 3)])
    rc, out = judge("compare", runs, "--baseline", base, "--flagged", flagged)
    assert rc == 1, out
    assert open(flagged).read() == "host-bound\n", out

    # Counts that differ: exit 2, which no re-check clears.
    write(runs, [run("steady", "search", 1.0, nodes=(11, 100), round=k) for k in (1, 2, 3)] +
          [run("host-bound", "search", 0.25, round=k) for k in (1, 2, 3)])
    rc, out = judge("compare", runs, "--baseline", base, "--flagged", flagged)
    assert rc == 2, out

    pairs = os.path.join(d, "pairs.jsonl")
    # The paired runs show both builds alike on this machine: cleared.
    write(pairs, [run("host-bound", "search", t, build=b, pair=k)
                  for k, (th, tb) in enumerate([(0.25, 0.24), (0.26, 0.25), (0.24, 0.25)], 1)
                  for b, t in (("head", th), ("base", tb))])
    rc, out = judge("paired", pairs, "--baseline", base)
    assert rc == 0 and "cleared" in out, out

    # This build is 20% slower beside the baseline's: confirmed.
    write(pairs, [run("host-bound", "search", t, build=b, pair=k)
                  for k, (th, tb) in enumerate([(0.30, 0.25), (0.31, 0.25), (0.29, 0.24)], 1)
                  for b, t in (("head", th), ("base", tb))])
    rc, out = judge("paired", pairs, "--baseline", base)
    assert rc == 1 and "SLOWER" in out, out

    # Equal times but the two builds explore different trees: a failure.
    write(pairs, [run("host-bound", "search", 0.25, nodes=(10, 100 + (b == "head")), build=b, pair=k)
                  for k in (1, 2) for b in ("head", "base")])
    rc, out = judge("paired", pairs, "--baseline", base)
    assert rc == 1 and "node counts differ" in out, out

    # A rate (higher is better) that halved beside the baseline build: confirmed.
    write(pairs, [dict(run("dfs-rate", "rate", 1.0, nodes=(1, n), build=b, pair=1))
                  for b, n in (("head", 500), ("base", 1000))])
    rc, out = judge("paired", pairs, "--baseline", base)
    assert rc == 1 and "dfs-rate" in out, out
    # A flagged compile case runs its unflagged sibling too: only the flagged one is judged.
    write(pairs, [run(case, "compile", 1.0, build=b, pair=1) | {"time_s": {"search": 0, "compile": t}}
                  for case, b, t in (("x-cold", "head", 2.0), ("x-cold", "base", 2.0),
                                     ("x-warm", "head", 0.02), ("x-warm", "base", 0.01))])
    with open(flagged, "w") as f:
        f.write("x-cold\n")
    rc, out = judge("paired", pairs, "--baseline", base, "--flagged", flagged)
    assert rc == 0 and "x-warm" not in out, out
    print("regress.py: every verdict as expected")


if __name__ == "__main__":
    main()
