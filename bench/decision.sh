#!/usr/bin/env bash
# Decision and enumeration on the GPU (and the cpu skeleton beside it): N-Queens 27 with
# goal = "find", br17 (partial-cost bound, lb=0) with --target at the optimum against
# the full proof from scratch,
# N-Queens 14 listed, and N-Queens 17/18 counted plainly (the kernels' speed without a
# list: compare with docs/performance.md). One JSON line per run: permjit's --json
# result plus "run" (what it measures), "repeat" and the commit.
#   bash bench/decision.sh OUT.jsonl
set -uo pipefail
out="$1"
root="$(cd "$(dirname "$0")/.." && pwd)"
inst="${PERMJIT_INSTANCES_DIR:-$root/../shared/instances}"
commit="$(cat "$root/.device-bin/COMMIT" 2>/dev/null || git -C "$root" rev-parse --short HEAD)"
find_spec="$(mktemp -d)/nqueens_find.toml"
sed 's/goal = "count"/goal = "find"/' "$root/problems/nqueens.toml" > "$find_spec"
run() {  # label repeat args...
  local label="$1" rep="$2" line
  shift 2
  line=$(permjit solve "$@" --json --quiet) || { echo "$label: failed" >&2; return; }
  python3 -c 'import json,sys; r=json.loads(sys.argv[1]); r["run"]=sys.argv[2]; r["repeat"]=int(sys.argv[3]); r["commit"]=sys.argv[4]; print(json.dumps(r))' \
    "$line" "$label" "$rep" "$commit" | tee -a "$out" |
    python3 -c 'import json,sys; r=json.loads(sys.stdin.read()); t=r["time_s"]; print(r["run"], r["skeleton"], "wall %.3f s, compile %.2f s, search %.3f s, find-to-exit %s, found %s %s, solutions %s, listed %s, evaluated %d" % (t["total"], t["compile"], t["search"], r.get("find_to_exit_s"), r.get("found"), r.get("objective"), r.get("solutions"), r.get("listed"), r["nodes"]["evaluated"]))'
}
for sk in dfs ivm cpu; do
  for k in 1 2 3 4; do run nqueens27-find "$k" "$find_spec" --param n=27 --skeleton "$sk"; done
done
for sk in ivm dfs cpu; do
  for k in 1 2 3; do run br17-target39 "$k" "$root/problems/atsp.toml" --instance "$inst/atsp/br17.atsp" --param lb=0 --skeleton "$sk" --target 39; done
  for k in 1 2; do run br17-proof "$k" "$root/problems/atsp.toml" --instance "$inst/atsp/br17.atsp" --param lb=0 --skeleton "$sk"; done
done
for sk in dfs ivm; do
  for k in 1 2 3; do run nqueens14-list "$k" "$root/problems/nqueens.toml" --param n=14 --skeleton "$sk" --list --no-symmetry --out /tmp/q14-$sk.txt; done
  for n in 17 18; do
    for k in 1 2 3; do run "nqueens$n-count" "$k" "$root/problems/nqueens.toml" --param n=$n --skeleton "$sk" --no-symmetry; done
  done
done
