#!/usr/bin/env python3
"""Runs a list of solves and appends one JSON line per run to a results file.

Each line is permjit's own --json result plus what is needed to rerun and compare:
the commit, the host and its CPU, the command line, and the time of the run.

    python3 bench/run.py bench/cpu_baseline.json --out bench/results/cpu-baseline.jsonl
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def commit():
    carried = os.path.join(ROOT, ".device-bin", "COMMIT")  # written by bench/device/prepare.sh
    if os.path.exists(carried):
        return "".join(open(carried).read().split())
    try:
        return subprocess.check_output(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], text=True).strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("matrix", help="JSON list of runs: {spec, instance?, params?, args?, repeat?}")
    ap.add_argument("--out", required=True, help="results file (JSON lines, appended)")
    ap.add_argument("--permjit", default=os.path.join(ROOT, "build", "bin", "permjit"))
    opts = ap.parse_args()
    with open(opts.matrix) as f:
        runs = json.load(f)
    host = {"host": platform.node(), "cpu": cpu_model(), "cores": os.cpu_count(), "commit": commit()}
    with open(opts.out, "a") as out:
        for run in runs:
            cmd = [opts.permjit, "solve", os.path.join(ROOT, run["spec"]), "--json"]
            if run.get("instance"):
                inst = run["instance"]
                shared = os.environ.get("PERMJIT_INSTANCES_DIR")
                if shared and inst.startswith("../shared/instances/"):
                    inst = os.path.join(shared, inst[len("../shared/instances/"):])  # carried copies
                cmd += ["--instance", os.path.join(ROOT, inst)]
            for k, v in run.get("params", {}).items():
                cmd += ["--param", f"{k}={v}"]
            cmd += [str(a) for a in run.get("args", [])]
            # Search time is measured apart from generation and compilation (which the
            # module cache makes a hit after the first run), so every run counts.
            for _ in range(run.get("repeat", 1)):
                res = subprocess.run(cmd, capture_output=True, text=True)
                if res.returncode != 0:
                    sys.stderr.write(res.stderr)
                    sys.exit(res.returncode)
                line = json.loads(res.stdout)
                line.update(host)
                line["command"] = " ".join(os.path.relpath(c, ROOT) if c.startswith(ROOT) else c for c in cmd)
                line["when"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
                out.write(json.dumps(line) + "\n")
                out.flush()
                print(f"{run['spec']} {run.get('instance', '')} {run.get('params', {})}: "
                      f"search {line['time_s']['search']:.3f} s, evaluated {line['nodes']['evaluated']}")


if __name__ == "__main__":
    main()
