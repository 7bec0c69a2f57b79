# Sourced by the device probes (bench/device/*_probe.sh, compile_matrix.sh,
# cold_compile_repeat.sh), from the repository root with .device-bin carried: the
# carried binaries on PATH, $OUT, $I (the instances), $commit, and log_solve.
source bench/device/env.sh
OUT="${OUT:-/tmp/permjit-out}"
mkdir -p "$OUT"
I=.device-bin/instances
commit=$(cat .device-bin/COMMIT 2>/dev/null || echo unknown)

# log_solve FILE LABEL=VALUE... -- SOLVE-ARGS...: runs `permjit solve SOLVE-ARGS --json
# --quiet` (at most $SOLVE_TIMEOUT s, default 120; $PERMJIT names another binary, such as
# a build of an earlier commit carried beside it), appends its JSON line with the labels and the commit to FILE
# and prints a line: the labels, the instance, NVRTC, compile and search seconds, whether
# the module cache hit, the evaluated nodes.
log_solve() {
  local file=$1
  shift
  local labels=()
  while [[ $# -gt 0 && $1 != -- ]]; do labels+=("$1"); shift; done
  shift
  # The output goes through a file: a --records run's passes what one argument may hold.
  local line
  line=$(mktemp)
  timeout "${SOLVE_TIMEOUT:-120}" "${PERMJIT:-permjit}" solve "$@" --json --quiet > "$line" ||
    { echo "${labels[*]} $*: failed"; rm -f "$line"; return; }
  python3 - "$file" "$line" "$commit" "${labels[@]}" <<'PY'
import json, sys
path, line, commit = sys.argv[1:4]
labels = dict(a.split("=", 1) for a in sys.argv[4:])
# --records prints a line per record, then a summary: keep the summary, in the shape of
# one solve's line.
r = json.loads(open(line).read().strip().splitlines()[-1])
if "summary" in r:
    s = r["summary"]
    r = dict(s, time_s={"search": s["search_s"], "compile": s["compile_s"], "total": s["wall_s"]},
             compile_s={}, nodes={"expanded": s["expanded"], "evaluated": s["expanded"]})
r.update(labels, commit=commit)
with open(path, "a") as f:
    f.write(json.dumps(r) + "\n")
t, c = r["time_s"], r.get("compile_s", {})
what = (r.get("instance") or r["problem"]).split("/")[-1]
print(" ".join(labels.values()), what, "nvrtc %.2f compile %.2f search %.3f hit %s evaluated %d" % (
    c.get("nvrtc", 0), t["compile"], t["search"], r["cache_hit"], r["nodes"]["evaluated"]))
PY
  rm -f "$line"
}

# log_ta029_pair FILE ROUND: issue 22's ta029 bar, one round: flowshop ta029 (LB2,
# forward, --ub 2237) for 10 s on 1 and then on 16 threads of the cpu backend, each a
# JSON line labelled what=ta029-THREADS.
log_ta029_pair() {
  local file=$1 round=$2 t
  for t in 1 16; do
    log_solve "$file" round="$round" what="ta029-$t" -- problems/flowshop.toml -i "$I/flowshop/ta029.txt" \
      --param branching=1 --param lb=2 --backend cpu --threads "$t" --ub 2237 --time-limit 10
  done
}
