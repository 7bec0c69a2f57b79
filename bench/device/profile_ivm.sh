#!/usr/bin/env bash
# On the GPU machine: Nsight Compute on the ivm explore kernel, ta029 at the optimum.
#   bash bench/device/profile_ivm.sh OUT_DIR detail   # one launch in the steady state, jobs at
#        both ends (lb=3) beside forward (lb=2): lanes at work per warp instruction
#        (divergence), scheduler activity, what warps wait for, local memory touched
#   bash bench/device/profile_ivm.sh OUT_DIR rounds   # every launch of a two-ended run, a few
#        metrics each (csv): how long each round lasts and how busy the SMs are in it
#   bash bench/device/profile_ivm.sh OUT_DIR nqueens  # one launch of N-Queens 18 (counting, light
#        nodes): the same questions for the counting loop, with the default rows and all shared
#   bash bench/device/profile_ivm.sh OUT_DIR nqueens-source [N]  # one launch of N-Queens N (18),
#        per SASS instruction: warp and thread instructions executed (which lines run with
#        few lanes), as csv beside the report
set -uo pipefail
out="$1"
what="${2:-detail}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
inst="${PERMJIT_INSTANCES_DIR:-$root/../shared/instances}/flowshop"
# Sets `run` to the solve of instance $1 at upper bound $2, with the rest of the arguments.
solve() { run=("$(command -v permjit)" solve "$root/problems/flowshop.toml" --instance "$inst/$1.txt" --skeleton ivm --ub "$2" "${@:3}"); }
metrics=smsp__thread_inst_executed_per_inst_executed.ratio,smsp__inst_executed.sum,smsp__thread_inst_executed.sum
metrics+=,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum
metrics+=,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active
metrics+=,gpu__time_duration.sum,sm__cycles_active.avg
detail() {  # label, launches to skip, then the solve's arguments
  local label="$1" skip="$2"
  shift 2
  solve "$@"
  ncu --clock-control none -k regex:pj_ivm_explore --launch-skip "$skip" --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section SchedulerStats --section WarpStateStats \
    --section LaunchStats --section InstructionStats --metrics "$metrics" "${run[@]}" >"$out/ncu-$label.txt" 2>&1
  echo "== $label (exit $?)"
  grep -E "pj_ivm_explore|rounds|thread_inst_executed_per|issue_active|warps_active|local_op|Duration|SM Active|Elapsed Cycles|Registers|Stall|No Eligible|Warp Cycles Per Issued" \
    "$out/ncu-$label.txt" | head -40
}
rounds() {  # label, then the solve's arguments
  local label="$1"
  shift
  solve "$@"
  ncu --clock-control none -k regex:pj_ivm_explore --csv --metrics "$metrics" "${run[@]}" >"$out/ncu-rounds-$label.csv" 2>&1
  echo "== rounds $label (exit $?): $(grep -c gpu__time_duration "$out/ncu-rounds-$label.csv") launches"
}
nqueens() {  # label, then the solve's extra arguments
  local label="$1"
  shift
  run=("$(command -v permjit)" solve "$root/problems/nqueens.toml" --param n=18 --skeleton ivm "$@")
  ncu --clock-control none -k regex:pj_ivm_explore --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section SchedulerStats --section WarpStateStats \
    --section LaunchStats --section InstructionStats --metrics "$metrics" "${run[@]}" >"$out/ncu-$label.txt" 2>&1
  echo "== $label (exit $?)"
  grep -E "thread_inst_executed_per|issue_active|warps_active|local_op|Duration|Registers|Achieved Occupancy|Theoretical Occupancy|Stall|No Eligible|Warp Cycles Per Issued|Executed Ipc" \
    "$out/ncu-$label.txt" | head -40
}
nqueens_source() {  # n
  local n="$1"
  run=("$(command -v permjit)" solve "$root/problems/nqueens.toml" --param n="$n" --skeleton ivm)
  ncu --clock-control none -k regex:pj_ivm_explore --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section SourceCounters --section InstructionStats \
    -o "$out/ncu-nqueens$n-source" "${run[@]}" >"$out/ncu-nqueens$n-source.log" 2>&1
  echo "== nqueens $n source (exit $?)"
  ncu -i "$out/ncu-nqueens$n-source.ncu-rep" --page source --csv --print-source sass >"$out/ncu-nqueens$n-sass.csv" 2>&1
  ncu -i "$out/ncu-nqueens$n-source.ncu-rep" --page details >"$out/ncu-nqueens$n-details.txt" 2>&1
  grep -E "Duration|Warp Cycles Per Issued|Issue Slots|Avg. Active Threads|Divergent" "$out/ncu-nqueens$n-details.txt" | head -20
}
case "$what" in
  nqueens-source)
    nqueens_source "${3:-18}"
    ;;
  nqueens)
    nqueens nqueens18-auto
    nqueens nqueens18-shared --ivm-rows shared
    ;;
  detail)
    detail two-ends-lb3 40 ta029 2237 --param branching=2 --param lb=3
    detail forward-lb2 40 ta029 2237 --param branching=1 --param lb=2
    ;;
  rounds)
    rounds two-ends-lb3-ta029 ta029 2237 --param branching=2 --param lb=3
    rounds two-ends-lb3-ta022 ta022 2099 --param branching=2 --param lb=3
    ;;
  *) echo "profile_ivm.sh: detail, rounds, nqueens or nqueens-source" >&2; exit 2 ;;
esac
