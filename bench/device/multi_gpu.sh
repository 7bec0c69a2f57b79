#!/usr/bin/env bash
# On a machine with several GPUs (nvidia-h200-x2): `ivm` on 1 GPU and on 2 (--gpus), and
# through `mpirun -np 2` when this permjit was built with MPI and mpirun is found.
# One JSON line per run in $1/multi-gpu.jsonl (the result's JSON and the case), a
# summary in $1/multi-gpu.log. Cases: what runs ($2, default "check nq20 ta021"); ways:
# how ($3, default "gpus=1 gpus=2", and "mpi=2" where mpirun is found). Cases: check, nq20,
# nq21, nq22, ta021 (forward at the optimum), ta023 (at the optimum), ta042u (ta042, the
# longest 50x10 proof, at its optimum: totals comparable), ta041-ta050 (from scratch),
# ta023sweep (ta023 at the optimum on the last way of $3 under each PERMJIT_IVM_BALANCE
# of $SWEEP: the round's trigger and slice on several GPUs), mpiload, mpickpt. A case's
# runs stop being started once $BUDGET_S seconds (default: none) have passed since the
# script's start; a run is killed after $RUN_LIMIT_S (default 590). On a machine with
# one GPU, "gpus=0,0" runs two workers that share it (the exchange, not a speed-up).
set -uo pipefail
out="$1"
cases="${2:-check nq20 ta021}"
inst="${PERMJIT_INSTANCES_DIR:-../shared/instances}"
jsonl="$out/multi-gpu.jsonl"
log="$out/multi-gpu.log"

t_script=$(date +%s)
# run NAME HOW ARGS...: HOW is "gpus=N" or "mpi=K".
run() {
  local name="$1" how="$2"
  shift 2
  if [ -n "${BUDGET_S:-}" ] && (( $(date +%s) - t_script >= BUDGET_S )); then
    echo "$name $how: not run, the budget of ${BUDGET_S} s is spent" | tee -a "$log"
    return
  fi
  local cmd=(timeout "${RUN_LIMIT_S:-590}" permjit solve "$@" --skeleton ivm --json --quiet)
  case "$how" in
    gpus=*) cmd+=(--gpus "${how#gpus=}") ;;
    mpi=*) cmd=(timeout "${RUN_LIMIT_S:-590}" mpirun --allow-run-as-root --oversubscribe -np "${how#mpi=}" "${cmd[@]:2}") ;;
  esac
  local t0 t1
  t0=$(date +%s.%N)
  "${cmd[@]}" > "$out/last.json" 2> "$out/last.err"
  local rc=$?
  t1=$(date +%s.%N)
  python3 - "$name" "$how" "$rc" "$t0" "$t1" "$out/last.json" "$out/last.err" >> "$jsonl" <<'PY'
import json, os, sys
name, how, rc, t0, t1, path, err = sys.argv[1:]
try:
    r = json.load(open(path))
except Exception:
    r = {"error": open(err).read()[-2000:]}
r["case"] = name
r["how"] = how
r["rc"] = int(rc)
r["wall_s"] = float(t1) - float(t0)
r["balance_env"] = os.environ.get("PERMJIT_IVM_BALANCE", "")
try:
    r["commit"] = open(".device-bin/COMMIT").read().split()[0]
except OSError:
    pass
print(json.dumps(r))
PY
  python3 - "$jsonl" <<'PY' | tee -a "$log"
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])][-1]
t = r.get("time_s", {})
n = r.get("nodes", {})
iv = r.get("ivm", {})
print(f'{r["case"]:8} {r["how"]:7} {r.get("balance_env", "")} rc={r["rc"]} search={t.get("search", 0):.3f}s compile={t.get("compile", 0):.2f}s '
      f'wall={r["wall_s"]:.2f}s evaluated={n.get("evaluated")} expanded={n.get("expanded")} '
      f'solutions={r.get("solutions")} objective={r.get("objective")} transfers={iv.get("transfers")} '
      f'rounds={iv.get("rounds")} messages={iv.get("messages")} busy={iv.get("coordinator_busy_s")} '
      f'{str(r.get("error", ""))[:300]}')
PY
}

ways="${3:-gpus=1 gpus=2}"
if [ -z "${3:-}" ] && command -v mpirun > /dev/null; then ways="$ways mpi=2"; fi
for c in $cases; do
  case "$c" in
    check)  # small: counts equal on 1 and 2 GPUs, one end and two
      for w in $ways; do run nq14 "$w" problems/nqueens.toml --param n=14; done
      for w in $ways; do run ta001 "$w" problems/flowshop.toml -i "$inst/flowshop/ta001.txt"; done
      for w in $ways; do run ta022f "$w" problems/flowshop.toml -i "$inst/flowshop/ta022.txt" --param branching=1 --ub 2099; done
      ;;
    nq20) for w in $ways; do run nq20 "$w" problems/nqueens.toml --param n=20; done ;;
    ta021) for w in $ways; do run ta021f "$w" problems/flowshop.toml -i "$inst/flowshop/ta021.txt" --param branching=1 --ub 2297; done ;;
    mpiload)  # rank 0's load with many ranks sharing the GPUs (docs/scale.md): N-Queens 17 and 18
      run q17 gpus=1 problems/nqueens.toml --param n=17
      run q18 gpus=1 problems/nqueens.toml --param n=18
      for k in 2 4 8 16; do run q17 "mpi=$k" problems/nqueens.toml --param n=17; done
      for k in 4 16; do run q18 "mpi=$k" problems/nqueens.toml --param n=18; done
      ;;
    ta023) for w in $ways; do run ta023 "$w" problems/flowshop.toml -i "$inst/flowshop/ta023.txt" --ub 2326; done ;;
    ta042u) for w in $ways; do run ta042u "$w" problems/flowshop.toml -i "$inst/flowshop/ta042.txt" --ub 2867; done ;;
    ta023sweep)
      last="${ways##* }"
      for b in ${SWEEP:-trigger=0.125 trigger=0.5 slice=0.02 slice=0.2}; do
        PERMJIT_IVM_BALANCE="$b" run ta023 "$last" problems/flowshop.toml -i "$inst/flowshop/ta023.txt" --ub 2326
      done
      ;;
    nq21 | nq22) for w in $ways; do run "$c" "$w" problems/nqueens.toml --param n=${c#nq}; done ;;
    ta04? | ta050)  # the 50x10 proofs from scratch (issue 50), the defaults
      for w in $ways; do run "$c" "$w" problems/flowshop.toml -i "$inst/flowshop/$c.txt"; done ;;
  esac
done

# mpickpt: N-Queens 19 through mpirun -np 2 stopped by SIGINT after 1 s with a checkpoint,
# resumed in one process on one GPU; its totals against an uninterrupted run's.
if [[ " $cases " == *" mpickpt "* ]] && command -v mpirun > /dev/null; then
  ck="$out/q19.ckpt"
  rm -f "$ck"
  run q19 gpus=1 problems/nqueens.toml --param n=19
  mpirun --allow-run-as-root -np 2 permjit solve problems/nqueens.toml --param n=19 --skeleton ivm --quiet \
    --checkpoint "$ck" --checkpoint-every 0.2 > "$out/mpickpt.out" 2>&1 &
  pid=$!
  sleep 2
  kill -INT $pid
  wait $pid
  echo "mpirun after SIGINT: rc=$? $(tail -c 300 "$out/mpickpt.out")" | tee -a "$log"
  run q19resumed gpus=1 problems/nqueens.toml --param n=19 --resume "$ck"
  run q19resumed2 gpus=0,0 problems/nqueens.toml --param n=19 --resume "$ck"
fi
