#!/usr/bin/env bash
# Compile and search time of the ivm skeleton on ta022, ta029 and ta030 at the optimum:
# each instance first with an empty module cache (cold: every compile paid), then again
# with the cache it left (warm), then the next instance with the cache the others left
# (a hit when one module serves every instance of a shape). One JSON line per run,
# permjit's --json result plus "cache" (cold | warm | shared) and the commit.
#   bash bench/compile_cold.sh OUT.jsonl [skeleton]
set -uo pipefail
out="$1"
skeleton="${2:-ivm}"
root="$(cd "$(dirname "$0")/.." && pwd)"
inst="${PERMJIT_INSTANCES_DIR:-$root/../shared/instances}/flowshop"
commit="$(cat "$root/.device-bin/COMMIT" 2>/dev/null || git -C "$root" rev-parse --short HEAD)"
run() {  # cache-label cache-dir instance ub
  local line
  line=$(permjit solve "$root/problems/flowshop.toml" --instance "$inst/$3.txt" --param branching=1 --param lb=2 --skeleton "$skeleton" \
           --ub "$4" --cache-dir "$2" --json --quiet) || return
  python3 -c 'import json,sys; r=json.loads(sys.argv[1]); r["cache"]=sys.argv[2]; r["commit"]=sys.argv[3]; print(json.dumps(r))' \
    "$line" "$1" "$commit" | tee -a "$out" |
    python3 -c 'import json,sys; r=json.loads(sys.stdin.read()); t=r["time_s"]; print(r["instance"], r["cache"], "compile %.2f s, search %.3f s, hit %s, expanded %d" % (t["compile"], t["search"], r["cache_hit"], r["nodes"]["expanded"]))'
}
shared="$(mktemp -d)"
for pair in ta022:2099 ta029:2237 ta030:2178; do
  i="${pair%%:*}" ub="${pair##*:}"
  cold="$(mktemp -d)"
  run cold "$cold" "$i" "$ub"
  run warm "$cold" "$i" "$ub"
  run shared "$shared" "$i" "$ub"
  rm -rf "$cold"
done
rm -rf "$shared"
