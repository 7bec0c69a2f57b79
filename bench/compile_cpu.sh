#!/usr/bin/env bash
# The CPU backend's cold compile (issue 43: at most 3 s a spec on the 2-core machine):
# each spec of problems/ and each of the tutorial's examples solved with an empty module
# cache, ROUNDS times (default 3), interleaved; prints the median of compile_s.host per
# spec and writes the runs as JSON lines to $OUT/compile-cpu.jsonl (or ./compile-cpu.jsonl).
#   bash bench/compile_cpu.sh [ROUNDS]
# Run it on an idle machine: a build beside it doubles the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-3}"
permjit="${PERMJIT:-build/bin/permjit}"
inst="${PERMJIT_INSTANCES_DIR:-../shared/instances}"
out="${OUT:-.}/compile-cpu.jsonl"
: > "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The tutorial's specs, cut out of docs/tutorial-new-problem.md, and its jobs8.txt.
python3 - "$work" <<'PY'
import re, sys
text = open("docs/tutorial-new-problem.md").read()
for i, block in enumerate(re.findall(r"```toml\n(.*?)```", text, re.S)):
    name = re.search(r'name = "(\w+)"', block)
    if name and "wrong" not in name.group(1):
        open(f"{sys.argv[1]}/{name.group(1)}.toml", "w").write(block)
jobs = re.search(r"Save as `jobs8.txt`:\n\n```\n(.*?)```", text, re.S)
open(f"{sys.argv[1]}/jobs8.txt", "w").write(jobs.group(1))
PY

cases=(
  "nqueens-12|problems/nqueens.toml --param n=12"
  "flowshop-ta021|problems/flowshop.toml -i $inst/flowshop/ta021.txt --time-limit 0.1"
  "flowshop-ta021-forward|problems/flowshop.toml -i $inst/flowshop/ta021.txt --param branching=1 --time-limit 0.1"
  "atsp-br17|problems/atsp.toml -i $inst/atsp/br17.atsp --time-limit 0.1"
  "qap-nug12|problems/qap.toml -i $inst/qap/nug12.dat --time-limit 0.1"
  "puzzle15-korf1|problems/puzzle15.toml -i $inst/15puzzle/korf100.txt --record 1 --time-limit 0.1"
)
for f in "$work"/*.toml; do
  name=$(basename "$f" .toml)
  extra=""
  grep -q '^\[data\]' "$f" && extra="-i $work/jobs8.txt"
  cases+=("tutorial-$name|$f $extra")
done

for r in $(seq 1 "$rounds"); do
  for c in "${cases[@]}"; do
    label=${c%%|*}
    rm -rf "$work/cache"
    # shellcheck disable=SC2086
    "$permjit" solve ${c#*|} --backend cpu --json --quiet --cache-dir "$work/cache" |
      python3 -c 'import json, sys; r = json.load(sys.stdin); r["case"] = sys.argv[1]; r["round"] = int(sys.argv[2]); print(json.dumps(r))' \
        "$label" "$r" >> "$out"
  done
done
python3 - "$out" <<'PY'
import json, statistics, sys
by = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    by.setdefault(r["case"], []).append(r["compile_s"]["host"])
print(f"{'spec':34} {'median':>7}  runs (host compile, s, empty cache)")
for case, v in by.items():
    print(f"{case:34} {statistics.median(v):7.2f}  " + " ".join(f"{x:.2f}" for x in v))
PY
