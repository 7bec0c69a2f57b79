#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin carried: anytime answers
# (docs/reliability.md, "Partial answers"). ta051 (50x20 flowshop, the defaults: ivm)
# with --time-limit S and a checkpoint, then its checkpoint resumed for S more; ta051
# stopped by SIGINT after SIG seconds with a checkpoint (the partial result must still
# be printed); ry48p (ATSP, its default skeleton) and Korf #88 (ida) with a 1 s limit;
# an unsolvable 8-puzzle with ida and a 1 s limit. A summary line per run in
# $OUT/anytime.jsonl (with its wall time); each run's JSON and stderr in
# $OUT/anytime_runs.tgz (the device tool brings back at most 8 files). Korf #88's first
# run builds its pattern databases (about a minute on the H100 machine, reported apart
# under pattern_databases; cached for later runs).
# Usage: bash bench/device/anytime.sh [--gpus N] [S] [SIG]   (defaults: 1 GPU, 60 s, 15 s)
#   --gpus N: the ivm runs (ta051, ry48p) on the first N GPUs (the same script on a
#   machine of 4 GPUs: --gpus 4).
#   ANYTIME_RUNS="ta051 ..." runs those only (ta051: the first run and its resume, both
#   with --progress, whose JSON samples go to the run's .log; sigint, ry48p, p8, korf88).
set -uo pipefail
source bench/device/env.sh
OUT="${OUT:-/tmp/permjit-out}"
mkdir -p "$OUT"
GPUS=1
if [ "${1:-}" = "--gpus" ]; then
  GPUS="$2"
  shift 2
fi
S="${1:-60}"
SIG="${2:-15}"
gpu_args=()
[ "$GPUS" != 1 ] && gpu_args=(--gpus "$GPUS")
I=.device-bin/instances
commit=$(cat .device-bin/COMMIT 2>/dev/null | tr -d '\n')
device=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
printf '1 2 3 4 5 6 8 7 0\n' > "$OUT/p8_unsolvable.txt"
rm -f "$OUT"/*.ckpt
run() {  # name, then the command after `permjit solve` (a leading `timeout -s INT N` allowed)
  local name=$1; shift
  local t0=$(date +%s%N)
  local pre=()
  if [ "$1" = timeout ]; then pre=(timeout -s INT "$2"); shift 2; fi
  "${pre[@]}" permjit solve "$@" --json > "$OUT/$name.json" 2> "$OUT/$name.log"
  local rc=$?
  local wall=$(( ($(date +%s%N) - t0) / 1000000 ))  # ms (the machine has no bc)
  python3 - "$name" "$rc" "$wall" "$OUT/$name.json" "$commit" "$*" "$device" "$GPUS" >> "$OUT/anytime.jsonl" <<'PY'
import json, sys
name, rc, wall, path, commit, args, device, gpus = sys.argv[1:9]
row = {"run": name, "exit": int(rc), "wall_s": int(wall) / 1000, "commit": commit, "device": device,
       "gpus": int(gpus), "args": args}
try:
    j = json.load(open(path))
    row.update({k: j.get(k) for k in ("skeleton", "complete", "objective", "cost", "time_limit_s",
                                      "interrupted_by_signal", "partial")})
    row["warm_start"] = (j.get("warm_start") or {}).get("objective")
    row["search_s"] = j["time_s"]["search"]
    row["compile_s"] = j["time_s"]["compile"]
    row["evaluated"] = j["nodes"]["evaluated"]
    if j.get("ivm"):
        row["ivm_open_bound_s"] = j["ivm"].get("open_bound_s")
        row["ivm_rounds"] = j["ivm"].get("rounds")
        row["ivm_refine"] = j["ivm"].get("refine")
        row["ivm_bound_samples"] = j["ivm"].get("bound_samples")
except Exception as e:
    row["error"] = repr(e)
print(json.dumps(row))
PY
  tail -n 1 "$OUT/anytime.jsonl"
}
F="$I/flowshop/ta051.txt"
RUNS="${ANYTIME_RUNS:-ta051 sigint ry48p p8 korf88}"
wants() { case " $RUNS " in *" $1 "*) return 0 ;; esac; return 1; }
if wants ta051; then
  run ta051_first problems/flowshop.toml -i "$F" "${gpu_args[@]}" --time-limit "$S" --progress --checkpoint "$OUT/ta051.ckpt"
  cp "$OUT/ta051.ckpt" "$OUT/ta051_first.ckpt" 2>/dev/null
  run ta051_resumed problems/flowshop.toml -i "$F" "${gpu_args[@]}" --time-limit "$S" --progress \
    --resume "$OUT/ta051_first.ckpt" --checkpoint "$OUT/ta051.ckpt"
fi
if wants sigint; then
  run ta051_sigint timeout "$SIG" problems/flowshop.toml -i "$F" "${gpu_args[@]}" --checkpoint "$OUT/ta051_sigint.ckpt"
  [ -s "$OUT/ta051_sigint.ckpt" ] && echo "ta051_sigint: checkpoint written ($(stat -c %s "$OUT/ta051_sigint.ckpt") bytes)"
fi
wants ry48p && run ry48p problems/atsp.toml -i "$I/atsp/ry48p.atsp" "${gpu_args[@]}" --time-limit 1
wants p8 && run p8_unsolvable_ida problems/puzzle15.toml -i "$OUT/p8_unsolvable.txt" --param w=3 --skeleton ida --time-limit 1
wants korf88 && run korf88_ida problems/puzzle15.toml -i "$I/15puzzle/korf100.txt" --record 88 --skeleton ida --time-limit 1
rm -f "$OUT"/*.ckpt  # large; the summaries and results stay
(cd "$OUT" && tar czf anytime_runs.tgz ./*.json ./*.log p8_unsolvable.txt && rm -f ./*.json ./*.log p8_unsolvable.txt)
true
