#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried: the ivm
# open-work unit compiled apart (docs/decisions.md, "The open-work kernels in a unit of
# their own"). First the ivm GPU tests; then
# flowshop ta022 with the defaults in empty module caches: the search's unit alone (a
# run at the optimum, nothing stopped), the open-work unit compiled ahead beside a run
# stopped by --time-limit, and compiled at the stop of a run stopped by SIGINT alone
# (its wait is that stop's delay). 64 explorers keep the search going past the stops.
# JSON lines in $OUT/ivm-open-unit.jsonl, the tests' log in $OUT/gpu-tests-ivm.log.
# About 4 minutes; at most 10 (the tests' timeout, 480 s, and the solves').
#   bash bench/device/ivm_open_unit.sh
set -uo pipefail
source bench/device/solve_log.sh
ta022="$I/flowshop/ta022.txt"
# Every ivm GPU test (about 3 minutes on the H100): the search's unit lost the open-work
# kernels, so the differential ones (node counts against the cpu skeleton) as well as
# [partial], whose [open_unit] case stops runs before and after the unit is compiled.
timeout 480 permjit_gpu_tests "[ivm]" -d yes > "$OUT/gpu-tests-ivm.log" 2>&1
echo "[ivm]: exit $? ($(grep -E "passed|failed" "$OUT/gpu-tests-ivm.log" | tail -1))"

f="$OUT/ivm-open-unit.jsonl"
permjit emit problems/nqueens.toml --param n=8 --skeleton ivm --stage ptx > /dev/null  # NVRTC's libraries read once
cache=$(mktemp -d)
log_solve "$f" what=search-unit-cold -- problems/flowshop.toml -i "$ta022" --skeleton ivm --ub 2099 --cache-dir "$cache"
log_solve "$f" what=open-unit-ahead -- problems/flowshop.toml -i "$ta022" --skeleton ivm --explorers 64 \
  --time-limit 0.2 --cache-dir "$cache"
log_solve "$f" what=open-unit-cached -- problems/flowshop.toml -i "$ta022" --skeleton ivm --explorers 64 \
  --time-limit 0.2 --cache-dir "$cache"
rm -rf "$cache"
cache=$(mktemp -d)
log_solve "$f" what=search-unit-cold -- problems/flowshop.toml -i "$ta022" --skeleton ivm --ub 2099 --cache-dir "$cache"
# SIGINT 3 s in (the search's module is cached, no warm start to wait for: the search
# listens for signals by then): the stop compiles the open-work unit.
line=$(mktemp)
timeout -s INT 3 permjit solve problems/flowshop.toml -i "$ta022" --skeleton ivm --explorers 64 --warm-start 0 \
  --cache-dir "$cache" --json --quiet > "$line"
echo "SIGINT run: exit $?"
python3 - "$f" "$line" "$commit" <<'PY'
import json, sys
path, line, commit = sys.argv[1:4]
r = json.loads(open(line).read().strip().splitlines()[-1])
r.update(what="open-unit-at-stop", commit=commit)
open(path, "a").write(json.dumps(r) + "\n")
PY
rm -rf "$cache" "$line"
python3 - "$f" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    o = r.get("ivm", {}).get("open_unit", {})
    print("%-18s nvrtc %.2f s  open unit %-10s compile %.2f s  waited %.2f s  search %.3f s  bound %s" % (
        r["what"], r["compile_s"]["nvrtc"], o.get("how"), o.get("compile_s", 0), o.get("waited_s", 0),
        r["time_s"]["search"], (r.get("partial") or {}).get("proven_bound")))
PY
