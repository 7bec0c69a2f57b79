#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried: where the ATSPs
# of 65-71 cities spend their time (issue 45), with the defaults (offload, lb=9).
#  1. offload's stop at --time-limit on kro124p (100 cities), whose batches of Lagrangian
#     bounds take seconds: the process's wall time beside the limit ($STOP_LIMIT, 20 s).
#  2. The tree at the optimum: each NAME:UB of $UB_CASES (default the optima + 1 of ftv64,
#     ft70, ftv70 and p43) at --ub UB, stopped at $PROBE_LIMIT s (default 60).
#  3. The warm start given longer: each of $WARM_CASES from scratch with --warm-start
#     $WARM (default 3 s), stopped at $PROBE_LIMIT s.
# JSON lines in $OUT/atsp-probe.jsonl, labelled case=stop|ub|warm; a line per run on stdout.
set -uo pipefail
source bench/device/solve_log.sh
f="$OUT/atsp-probe.jsonl"
limit="${PROBE_LIMIT:-60}"
stop_limit="${STOP_LIMIT:-20}"
if [[ -n "${STOP_LIMIT-20}" ]]; then
  t0=$(date +%s.%N)
  SOLVE_TIMEOUT=$((stop_limit + 120)) log_solve "$f" case=stop limit_s="$stop_limit" -- problems/atsp.toml \
    -i "$I/atsp/kro124p.atsp" --time-limit "$stop_limit"
  echo "kro124p at --time-limit $stop_limit: process wall $(python3 -c "import time; print(round(time.time() - $t0, 2))") s"
fi
for c in ${UB_CASES-ftv64:1840 ft70:38674 ftv70:1951 p43:5621}; do
  i=${c%%:*} ub=${c#*:}
  SOLVE_TIMEOUT=$((limit + 120)) log_solve "$f" case=ub ub="$ub" limit_s="$limit" -- problems/atsp.toml \
    -i "$I/atsp/$i.atsp" --ub "$ub" --time-limit "$limit"
done
for i in ${WARM_CASES-ft70 ftv70}; do
  SOLVE_TIMEOUT=$((limit + 120)) log_solve "$f" case=warm warm_s="${WARM:-3}" limit_s="$limit" -- problems/atsp.toml \
    -i "$I/atsp/$i.atsp" --warm-start "${WARM:-3}" --time-limit "$limit"
done
# What each run ended with: proved, or the incumbent and the proven bound.
python3 - "$f" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    p = r.get("partial") or {}
    print(r["case"], r["instance"].split("/")[-1], "objective", r.get("objective"),
          "proven bound %s" % p.get("proven_bound") if p else "proved",
          "search %.2f s" % r["time_s"]["search"], "evaluated", r["nodes"]["evaluated"])
PY
