#!/usr/bin/env python3
"""Runs a list of solves and appends one JSON line per run to a results file.

Each line is permjit's own --json result plus what is needed to rerun and compare:
the commit, the host and its CPU, the command line, and the time of the run.

    python3 bench/run.py bench/cpu_baseline.json --out bench/results/cpu-baseline.jsonl

A run with `--records LIST` solves many records in one process: permjit prints a JSON
object per record (with "record") and a last one {"summary": ...}; each becomes a line.
If such a run reaches its time limit, the records it finished are kept, and a
timed-out line says so.
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


def timed_out_line(run, cmd):
    """What is known of a run stopped at its time limit: enough to group it with the
    others (bench/summarize.py's key) and say it took longer than the limit."""
    args = [str(a) for a in run.get("args", [])]
    skeleton = args[args.index("--skeleton") + 1] if "--skeleton" in args else None
    instance = next((c for c, prev in zip(cmd[1:], cmd) if prev == "--instance"), None)
    return {"timed_out": True, "timeout_s": run["timeout"],
            "problem": os.path.splitext(os.path.basename(run["spec"]))[0],
            "instance": instance, "params": run.get("params", {}), "skeleton": skeleton}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("matrix", help="JSON list of runs: {spec, instance?, params?, args?, env?, repeat?, timeout?}")
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
            # A run past its `timeout` (seconds) is stopped and recorded as such: the
            # slowest configurations of a sensitivity study bound the matrix's time.
            command = " ".join(os.path.relpath(c, ROOT) if c.startswith(ROOT) else c for c in cmd)
            # An entry may set environment variables (e.g. PERMJIT_UNROLL_BUDGET): recorded with its lines.
            env = dict(os.environ, **{k: str(v) for k, v in run.get("env", {}).items()})
            for _ in range(run.get("repeat", 1)):
                try:
                    res = subprocess.run(cmd, capture_output=True, text=True, timeout=run.get("timeout"), env=env)
                    stdout, lines = res.stdout, []
                except subprocess.TimeoutExpired as e:
                    stdout = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
                    lines = [timed_out_line(run, cmd)]
                    print(f"{run['spec']} {run.get('instance', '')} {run.get('params', {})}: "
                          f"stopped after {run['timeout']} s")
                else:
                    if res.returncode != 0:
                        sys.stderr.write(res.stderr)
                        sys.exit(res.returncode)
                # One JSON object per line: one solve, or each record of --records and a summary.
                done = [json.loads(l) for l in stdout.splitlines() if l.strip().startswith("{")]
                lines = done + lines
                for line in done:
                    if "summary" in line:
                        s = line["summary"]
                        print(f"  {s['records']} records: search {s['search_s']:.3f} s, compile {s['compile_s']:.3f} s, "
                              f"wall {s['wall_s']:.3f} s")
                    else:
                        rec = f" record {line['record']}" if "record" in line else ""
                        print(f"{run['spec']} {run.get('instance', '')}{rec} {run.get('params', {})}: "
                              f"search {line['time_s']['search']:.3f} s, evaluated {line['nodes']['evaluated']}")
                for line in lines:
                    line.update(host)
                    line["command"] = command
                    if run.get("env"):
                        line["env"] = run["env"]
                    line["when"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
                    out.write(json.dumps(line) + "\n")
                out.flush()

if __name__ == "__main__":
    main()
