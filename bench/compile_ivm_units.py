#!/usr/bin/env python3
"""NVRTC's time for the ivm skeleton's units (docs/performance.md, "What the refinement
kernel costs every `ivm` compile"): `permjit emit SPEC -i INSTANCE --skeleton ivm --stage
ptx` of a baseline build (one unit holding the open-work kernels) and of this build (the
search's unit, then the open-work unit, `--unit deferred`), interleaved round by round;
wall seconds, medians, the PTX's lines and the load average before each round. No GPU.

  python3 bench/compile_ivm_units.py BASE_PERMJIT [ROUNDS] [--json OUT.json]

BASE_PERMJIT: a build without the deferred unit (scripts/build_rev.sh REV DIR builds
one); this build is build/bin/permjit, or $PERMJIT. Instance: $INSTANCE, else ta022.
$STAGE: ptx (default), or resources for the compile to a cubin (ptxas too), as a run's."""
import json, os, statistics, subprocess, sys, time

args = [a for a in sys.argv[1:]]
out_json = None
if "--json" in args:
    i = args.index("--json")
    out_json = args[i + 1]
    del args[i:i + 2]
base = args[0]
rounds = int(args[1]) if len(args) > 1 else 3
new = os.environ.get("PERMJIT", "build/bin/permjit")
inst_dir = os.environ.get("PERMJIT_INSTANCES_DIR", "../shared/instances")
instance = os.environ.get("INSTANCE", f"{inst_dir}/flowshop/ta022.txt")
spec = "problems/flowshop.toml"
stage = os.environ.get("STAGE", "ptx")

cases = [("base", base, []), ("search", new, ["--unit", "main"]), ("open-work", new, ["--unit", "deferred"])]
runs = {name: [] for name, _, _ in cases}
lines = {}
loads = []
for r in range(rounds):
    loads.append(os.getloadavg()[0])
    for name, exe, extra in cases:
        t0 = time.monotonic()
        ptx = subprocess.run([exe, "emit", spec, "-i", instance, "--skeleton", "ivm", "--stage", stage, *extra],
                             check=True, capture_output=True, text=True).stdout
        runs[name].append(round(time.monotonic() - t0, 3))
        lines[name] = ptx.count("\n") if stage == "ptx" else None
    print(f"round {r + 1}: load {loads[-1]:.2f}: " + ", ".join(f"{n} {runs[n][-1]:.2f} s" for n in runs), flush=True)

result = {
    "what": f"permjit emit {spec} -i {os.path.basename(instance)} --skeleton ivm --stage {stage}, wall seconds, "
            "interleaved rounds (base, search unit, open-work unit)",
    "load_before_rounds": [round(x, 2) for x in loads],
    "cases": {n: {"runs": runs[n], "median": statistics.median(runs[n]), "ptx_lines": lines[n]} for n in runs},
}
for n in runs:
    print(f"{n:10s} median {statistics.median(runs[n]):.2f} s  runs {runs[n]}" +
          (f"  PTX {lines[n]:,} lines" if lines[n] is not None else ""))
if out_json:
    with open(out_json, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
