#!/usr/bin/env bash
# On the GPU machine, with .device-bin carried: how idle the ivm skeleton's explorers are
# on one GPU (issues 43 and 50), by build and by work-sharing setting, in paired rounds.
#   bash bench/device/ivm_idle.sh ROUNDS "VARIANT..." CASE...
# A VARIANT is BUILD or BUILD+BALANCE: BUILD names .device-bin/bin/permjit-BUILD ("head"
# is .device-bin/bin/permjit), BALANCE a value of PERMJIT_IVM_BALANCE
# (runtime/ivm/ivm_device.hpp: victims=mean|log,passes=N,slice=S; builds before the
# variable ignore it). A CASE is one of
#   ta023     forward (branching=1, LB2) at the optimum, --ub 2326 (about 1.3 s: the A/B case)
#   ta021     forward at the optimum, --ub 2297 (issue 43's bar: 35 s of search)
#   ta042     the defaults from scratch, --time-limit ${IDLE_LIMIT:-30} (issue 50)
#   fifty     the defaults from scratch on ta041-ta050 in turn, --time-limit
#             ${FIFTY_LIMIT:-60} each, while ${FIFTY_BUDGET:-600} s of wall time last
#             (issue 50's item 3: what proves in ten minutes), first variant only
#   INSTANCE:UB:ARGS  any flowshop instance; ARGS are solve arguments with ':' for ' '
# Each variant has its own module cache; the first round compiles (a round 0, not
# counted, warms every cache). JSON lines in $OUT/ivm-idle.jsonl labelled case=,
# variant=, round=; a table of medians in $OUT/ivm-idle.txt (idle share of the explorers'
# kernel time, steals and milliseconds a round, nodes/s, and whether the counts agree).
set -uo pipefail
source bench/device/solve_log.sh
rounds="${1:-2}"
variants=($2)
shift 2
cases=("$@")
for v in "${variants[@]}"; do
  b=${v%%+*}
  mkdir -p "/tmp/permjit-$b/bin"
  if [ "$b" = head ]; then cp .device-bin/bin/permjit "/tmp/permjit-$b/bin/permjit"; else cp ".device-bin/bin/permjit-$b" "/tmp/permjit-$b/bin/permjit"; fi
done
file="$OUT/ivm-idle.jsonl"
F="$I/flowshop"

# solve_case CASE VARIANT ROUND
solve_case() {
  local c=$1 v=$2 k=$3 b=${2%%+*} bal="" args=()
  [[ $v == *+* ]] && bal=${v#*+}
  case $c in
    ta023) args=(-i "$F/ta023.txt" --param branching=1 --ub 2326) ;;
    ta021) args=(-i "$F/ta021.txt" --param branching=1 --ub 2297) ;;
    ta042) args=(-i "$F/ta042.txt" --time-limit "${IDLE_LIMIT:-30}") ;;
    *:*:*) local rest=${c#*:*:}; args=(-i "$F/${c%%:*}.txt" ${rest//:/ }) ;;
    *:*) args=(-i "$F/${c%%:*}.txt" --ub "${c#*:}") ;;
  esac
  env PERMJIT_IVM_BALANCE="$bal" PERMJIT="/tmp/permjit-$b/bin/permjit" SOLVE_TIMEOUT=600 \
    bash -c 'source bench/device/solve_log.sh; log_solve "$@"' _ "$file" case="$c" variant="$v" round="$k" -- \
    problems/flowshop.toml "${args[@]}" --skeleton ivm --cache-dir "/tmp/permjit-cache-$b"
}

for c in "${cases[@]}"; do
  if [ "$c" = fifty ]; then
    v=${variants[0]}
    start=$SECONDS
    for i in ta041 ta042 ta043 ta044 ta045 ta046 ta047 ta048 ta049 ta050; do
      left=$(( ${FIFTY_BUDGET:-600} - (SECONDS - start) ))
      [ "$left" -le 5 ] && { echo "fifty: the budget is spent before $i"; break; }
      lim=${FIFTY_LIMIT:-60}
      [ "$left" -lt "$lim" ] && lim=$left
      solve_case "$i::--time-limit:$lim" "$v" 1
    done
    continue
  fi
  for k in $(seq 0 "$rounds"); do
    [ "$k" = 0 ] && [ "$c" != ta023 ] && continue  # the warm-up round: the short case's compile
    for v in "${variants[@]}"; do solve_case "$c" "$v" "$k"; done
  done
done

python3 - "$file" <<'PY' | tee "$OUT/ivm-idle.txt"
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
groups = {}
for r in rows:
    if r.get("round") == "0":
        continue
    groups.setdefault((r["case"], r["variant"]), []).append(r)
print(f"{'case':28} {'variant':34} {'n':>2} {'search_s':>9} {'idle':>6} {'busy0':>6} {'steals/rd':>10} {'ms/rd':>7} {'nodes/s':>9} {'evaluated':>16} done")
for (c, v), rs in groups.items():
    med = lambda f: statistics.median(f(r) for r in rs)
    nan = float("nan")
    # A build from before the idle share has none: its columns read nan.
    idle = lambda r: r["ivm"].get("idle") or {"idle": nan, "busy_at_start": nan, "steals": 0, "rounds": 1,
                                               "wall_s": nan, "nodes_per_s": r["nodes"]["evaluated"] / r["time_s"]["search"]}
    evals = sorted({r["nodes"]["evaluated"] for r in rs})
    ok = all(r.get("complete", True) for r in rs)
    print(f"{c:28} {v:34} {len(rs):2} {med(lambda r: r['time_s']['search']):9.3f} {med(lambda r: idle(r)['idle']):6.3f} "
          f"{med(lambda r: idle(r)['busy_at_start']):6.3f} "
          f"{med(lambda r: idle(r)['steals'] / max(1, idle(r)['rounds'])):10.1f} "
          f"{med(lambda r: 1e3 * idle(r)['wall_s'] / max(1, idle(r)['rounds'])):7.2f} "
          f"{med(lambda r: idle(r)['nodes_per_s']):9.3g} {'/'.join(map(str, evals)):>16} "
          f"{('proved ' + str(rs[0].get('objective'))) if ok else 'stopped, best ' + str(rs[0].get('objective'))}")
# The series of the last run of each group: idle share and node rate over time.
for (c, v), rs in groups.items():
    s = (rs[-1]["ivm"].get("idle") or {}).get("samples", [])
    print(f"\n{c} {v}: t_s idle busy_at_start steals/round nodes/s")
    for x in s[:: max(1, len(s) // 16)]:
        print(f"  {x['t_s']:8.2f} {x['idle']:6.3f} {x['busy_at_start']:6.3f} {x['steals'] / max(1, x['rounds']):10.1f} {x['nodes_per_s']:9.3g}")
PY
