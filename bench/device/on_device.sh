#!/usr/bin/env bash
# On the GPU machine, from the repository root, with .device-bin carried:
#   bash bench/device/on_device.sh test         # GPU differential tests (dfs, ivm, cdp, rec vs cpu)
#   bash bench/device/on_device.sh bench        # the GPU benchmark matrix, JSON lines in $OUT
#   bash bench/device/on_device.sh bench-ivm sweep-ivm  # ivm beside dfs; trigger/explorer sweeps
#   bash bench/device/on_device.sh sensitivity  # Carneiro Pessoa et al. 2018's Table 3 (bench/cdp_sensitivity.json)
#   bash bench/device/on_device.sh test-ida bench-ida  # ida tests only; Korf's 100 with ida in one process
#   bash bench/device/on_device.sh bench-ida-donate    # donate: --donate-after x --roots on Korf's 100
#   bash bench/device/on_device.sh bench-ida-balance   # ida x3, dynamic, static on the 100; ida vs cpu x16 on 1-25
#   bash bench/device/on_device.sh bench-ida-compare   # static vs dynamic, ida-thread; ida vs cpu x16 on 1-25
#   bash bench/device/on_device.sh test-flowshop bench-offload  # offload tests; ta022/029/030 bar runs
#   bash bench/device/on_device.sh bench-offload-table  # offload on ta021-030, cpu x16 on ta022/029/030
#   bash bench/device/on_device.sh bench-ida-all       # Korf's 100 with ida, ida-thread, cpu x16 (a process each)
#   bash bench/device/on_device.sh flowshop-cpu16-two-ends flowshop-cpu16-forward  # the CPU backend on 16 cores
#   bash bench/device/on_device.sh compile-cold        # ivm on ta022/029/030: cold compile, then warm
#   bash bench/device/on_device.sh compile-matrix      # the defaults per data mode, cold and warm (compile_matrix.sh)
#   bash bench/device/on_device.sh ivm-shape           # ivm search: run-time data against specialized, unroll budget
#   bash bench/device/on_device.sh flowshop-public-counts  # ta022/029/030 with the public code's bound (tails=2)
#   bash bench/device/on_device.sh cpu-scaling         # the cpu skeleton at 1-16 threads; the hand-written counter
#   bash bench/device/on_device.sh test-two-ends flowshop-two-ends-opt  # two-ended ivm: tests; ta021-030 at the optimum
#   bash bench/device/on_device.sh flowshop-scratch-small  # ta001-ta020 from scratch, forward and two ends
#   bash bench/device/on_device.sh flowshop-scratch-small-defaults flowshop-50-jobs  # the defaults; ta041-ta060, 25 s each
#   bash bench/device/on_device.sh ivm-idle fifty-ten-minutes  # ivm's idle share (issue 43); ta041-ta050 in ten minutes (issue 50)
#   bash bench/device/on_device.sh test-decision decision  # goal find, --target, --list: tests, then timings
#   bash bench/device/on_device.sh test-ivm nqueens-symmetry  # ivm tests alone; N-Queens 19/20 with the symmetry
#   bash bench/device/on_device.sh flowshop-two-ends-scratch-a flowshop-two-ends-scratch-b  # two ends from scratch
#   bash bench/device/on_device.sh profile-ivm profile-ivm-rounds  # Nsight Compute: ivm explore, two ends and forward
#   bash bench/device/on_device.sh test-fault          # a device fault in each GPU skeleton: message, exit 2, resume
set -uo pipefail
source "$(dirname "$0")/env.sh"
out="${OUT:-/tmp/permjit-out}"
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv | tee "$out/device.txt"
command -v c++ >/dev/null || { echo "no host C++ compiler on this machine" | tee -a "$out/device.txt"; exit 1; }
c++ --version | head -1 | tee -a "$out/device.txt"
nproc | tee -a "$out/device.txt"
# permjit links NVRTC and nvJitLink from the machine's CUDA toolkit: say so if one is missing.
ldd "$(command -v permjit)" | grep "not found" | tee -a "$out/device.txt"
for mode in "$@"; do
  case "$mode" in
    test)
      permjit_gpu_tests --durations yes 2>&1 | tee "$out/gpu-tests.log" | tail -30
      ;;
    bench)
      python3 bench/run.py bench/gpu_dfs.json --permjit "$(command -v permjit)" --out "$out/gpu-dfs.jsonl" 2>&1 |
        tee "$out/bench.log"
      ;;
    test-fault)  # a device fault provoked in each GPU skeleton (tests/gpu/device_fault_test.py)
      python3 tests/gpu/device_fault_test.py "$(command -v permjit)" problems "$PERMJIT_INSTANCES_DIR" 2>&1 |
        tee "$out/gpu-tests-fault.log" | tail -40
      ;;
    test-ida)
      permjit_gpu_tests "[ida]" --durations yes 2>&1 | tee "$out/gpu-tests-ida.log" | tail -30
      ;;
    bench-ida)  # Korf's 100 in ONE process (one compile), all optimal solutions: ida; a line per record + summary
      python3 bench/run.py bench/korf100_ida_only.json --permjit "$(command -v permjit)" --out "$out/korf100-ida.jsonl" 2>&1 |
        tee "$out/bench-ida.log"
      python3 bench/summarize.py "$out/korf100-ida.jsonl" | tail -3 | tee -a "$out/bench-ida.log"
      ;;
    bench-ida-donate)  # Korf's 100 in one process: dynamic (host split) against donation, default and fewer roots
      python3 bench/run.py bench/korf100_ida_donate.json --permjit "$(command -v permjit)" --out "$out/korf100-donate.jsonl" 2>&1 |
        tee "$out/bench-ida-donate.log"
      ;;
    bench-ida-balance)  # Korf's 100: ida x3 (donate), dynamic, static; ida and the CPU x16 on records 1-25
      python3 bench/run.py bench/korf100_ida_balance.json --permjit "$(command -v permjit)" --out "$out/korf100-balance.jsonl" 2>&1 |
        tee "$out/bench-ida-balance.log"
      ;;
    bench-ida-compare)  # static balancing, ida-thread on the 100; ida and the CPU x16 on records 1-25
      python3 bench/run.py bench/korf100_compare.json --permjit "$(command -v permjit)" --out "$out/korf100-compare.jsonl" 2>&1 |
        tee "$out/bench-ida-compare.log"
      ;;
    bench-offload)  # the offload skeleton's host threads on ta022/029/030 at the optimum (issue 5's bar)
      python3 bench/run.py bench/flowshop_offload_threads.json --permjit "$(command -v permjit)" \
        --out "$out/flowshop-offload.jsonl" 2>&1 | tee "$out/bench-offload.log"
      ;;
    bench-offload-table)  # offload branch on ta021-ta030 at the optimum (45 s each); the CPU x16 on ta022/029/030
      python3 bench/run.py bench/flowshop_offload_table.json --permjit "$(command -v permjit)" \
        --out "$out/flowshop-offload-table.jsonl" 2>&1 | tee "$out/bench-offload-table.log"
      ;;
    flowshop-ivm-scratch)  # ivm: ta024 at the optimum, then ta021-ta030 from scratch (10-minute limit each)
      python3 bench/run.py bench/flowshop_ivm_scratch.json --permjit "$(command -v permjit)" \
        --out "$out/flowshop-ivm-scratch.jsonl" 2>&1 | tee "$out/flowshop-ivm-scratch.log"
      ;;
    bench-offload-rest)  # offload branch on ta021/ta024, offload bound on ta023/25/26/27/28 (at the optimum)
      python3 bench/run.py bench/flowshop_offload_rest.json --permjit "$(command -v permjit)" \
        --out "$out/flowshop-offload-rest.jsonl" 2>&1 | tee "$out/flowshop-offload-rest.log"
      ;;
    bench-offload-rest2)  # offload bound on ta021/ta024, dfs on ta022/ta030 (at the optimum)
      python3 bench/run.py bench/flowshop_offload_rest2.json --permjit "$(command -v permjit)" \
        --out "$out/flowshop-offload-rest2.jsonl" 2>&1 | tee "$out/flowshop-offload-rest2.log"
      ;;
    flowshop-cpu-scratch)  # the CPU backend on 16 threads, from scratch: ta001/005/006/008/010 (slow on 2 cores)
      python3 bench/run.py bench/flowshop_cpu_scratch.json --permjit "$(command -v permjit)" \
        --out "$out/flowshop-cpu-scratch.jsonl" 2>&1 | tee "$out/flowshop-cpu-scratch.log"
      ;;
    flowshop-cpu16-two-ends)  # cpu x16, jobs at both ends: ta001-ta010 from scratch; ta021-ta030 at the optimum (30 s limit)
      python3 bench/run.py bench/flowshop_cpu16_two_ends.json --permjit "$(command -v permjit)" \
        --out "$out/flowshop-cpu16-two-ends.jsonl" 2>&1 | tee "$out/flowshop-cpu16-two-ends.log"
      ;;
    flowshop-cpu16-forward)  # cpu x16, forward: ta021-ta030 at the optimum (20 s limit); ivm on ta029 beside it
      python3 bench/run.py bench/flowshop_cpu16_forward.json --permjit "$(command -v permjit)" \
        --out "$out/flowshop-cpu16-forward.jsonl" 2>&1 | tee "$out/flowshop-cpu16-forward.log"
      ;;
    flowshop-cpu16-proofs)  # cpu x16, forward: ta029, ta030, ta022 proved at the optimum (200 s limit each)
      python3 bench/run.py bench/flowshop_cpu16_forward_proofs.json --permjit "$(command -v permjit)" \
        --out "$out/flowshop-cpu16-proofs.jsonl" 2>&1 | tee "$out/flowshop-cpu16-proofs.log"
      ;;
    flowshop-dfs-limited)  # dfs at the optimum with a 10 s limit: ta027, ta023, ta025 (partial counts and rates)
      python3 bench/run.py bench/flowshop_dfs_limited.json --permjit "$(command -v permjit)" \
        --out "$out/flowshop-dfs-limited.jsonl" 2>&1 | tee "$out/flowshop-dfs-limited.log"
      ;;
    flowshop-dfs-bar)  # dfs at the optimum on ta029, ta030, ta022 (the three reference instances)
      python3 bench/run.py bench/flowshop_dfs_bar.json --permjit "$(command -v permjit)" \
        --out "$out/flowshop-dfs-bar.jsonl" 2>&1 | tee "$out/flowshop-dfs-bar.log"
      ;;
    cpu-scaling)  # the cpu skeleton at 1-16 threads (bench/cpu_scaling.json) and the hand-written N-Queens counter
      python3 bench/run.py bench/cpu_scaling.json --permjit "$(command -v permjit)" \
        --out "$out/cpu-scaling.jsonl" 2>&1 | tee "$out/cpu-scaling.log"
      cc="$(command -v cc || command -v gcc || echo "c++ -x c")"
      $cc -O3 -march=native -o /tmp/nqueens_bitboard bench/cpu/nqueens_bitboard.c
      for n in 15 16; do
        for r in 1 2 3; do /tmp/nqueens_bitboard "$n" | tee -a "$out/cpu-scaling-bitboard.jsonl"; done
      done
      python3 bench/cpu_scaling.py "$out/cpu-scaling.jsonl" "$out/cpu-scaling-bitboard.jsonl" \
        --plot "$out/cpu-scaling.png" | tee "$out/cpu-scaling.md"
      ;;
    test-time-limit)
      permjit_gpu_tests "[time_limit]" --durations yes 2>&1 | tee "$out/gpu-tests-time-limit.log" | tail -8
      ;;
    test-flowshop)
      permjit_gpu_tests "[flowshop]" --durations yes 2>&1 | tee "$out/gpu-tests-flowshop.log" | tail -30
      ;;
    bench-ida-all)  # the same with ida, ida-thread, then the CPU backend on 16 threads
      python3 bench/run.py bench/korf100_ida.json --permjit "$(command -v permjit)" --out "$out/korf100-ida-all.jsonl" 2>&1 |
        tee "$out/bench-ida-all.log"
      ;;
    bench-ivm)  # ivm beside dfs, and where the rows live
      python3 bench/run.py bench/gpu_ivm.json --permjit "$(command -v permjit)" --out "$out/gpu-ivm.jsonl" 2>&1 |
        tee "$out/bench-ivm.log"
      ;;
    sweep-ivm)  # trigger and explorer counts (Carneiro Pessoa et al. 2016 Fig. 3 and 5)
      python3 bench/run.py bench/ivm_sweep.json --permjit "$(command -v permjit)" --out "$out/ivm-sweep.jsonl" 2>&1 |
        tee "$out/sweep-ivm.log"
      ;;
    sensitivity)
      python3 bench/run.py bench/cdp_sensitivity.json --permjit "$(command -v permjit)" \
        --out "$out/cdp-sensitivity.jsonl" 2>&1 | tee "$out/sensitivity.log"
      python3 bench/sensitivity.py "$out/cdp-sensitivity.jsonl" | tee "$out/cdp-sensitivity.md"
      ;;
    ivm-shape)  # ta022/029/030 (ivm) at the optimum: the default (compiled data), and run-time data with bound() called
      python3 bench/run.py bench/ivm_shape.json --permjit "$(command -v permjit)" --out "$out/ivm-shape.jsonl" 2>&1 |
        tee "$out/ivm-shape.log"
      ;;
    test-two-ends)  # two-ended ivm and the warm start against cpu
      permjit_gpu_tests "[two_ends],[warm_start],[stages]" --durations yes 2>&1 | tee "$out/gpu-tests-two-ends.log" | tail -30
      ;;
    flowshop-two-ends-opt)  # ivm, jobs at both ends, ta021-ta030 at the optimum
      python3 bench/run.py bench/flowshop_two_ends_ivm_opt.json --permjit "$(command -v permjit)" \
        --out "$out/flowshop-two-ends-opt.jsonl" 2>&1 | tee "$out/flowshop-two-ends-opt.log"
      ;;
    flowshop-public-counts)  # ta022/029/030 at the optimum with the public code's tails (tails=2): its tree is expanded - 1
      python3 bench/run.py bench/flowshop_public_counts.json --permjit "$(command -v permjit)" \
        --out "$out/flowshop-public-counts.jsonl" 2>&1 | tee "$out/flowshop-public-counts.log"
      python3 -c 'import json,sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if "nodes" in r: print(r["instance"].split("/")[-1], r["skeleton"], "expanded", r["nodes"]["expanded"], "public tree", r["nodes"]["expanded"] - 1)' \
        "$out/flowshop-public-counts.jsonl" | tee -a "$out/flowshop-public-counts.log"
      ;;
    flowshop-scratch-small-defaults)  # ta001-ta020 from scratch with the spec's defaults (two ends, lb=0), ivm
      python3 bench/run.py bench/flowshop_scratch_small_defaults.json --permjit "$(command -v permjit)" \
        --out "$out/flowshop-scratch-small-defaults.jsonl" > "$out/flowshop-scratch-small-defaults.log" 2>&1
      tail -3 "$out/flowshop-scratch-small-defaults.log"
      ;;
    flowshop-20x20-defaults)  # ta021-ta030 with the spec's defaults (ivm): from scratch, then at the optimum
      python3 bench/run.py bench/flowshop_20x20_defaults.json --permjit "$(command -v permjit)" \
        --out "$out/flowshop-20x20-defaults.jsonl" > "$out/flowshop-20x20-defaults.log" 2>&1
      tail -3 "$out/flowshop-20x20-defaults.log"
      ;;
    flowshop-50-jobs)  # ta041-ta060 with the defaults, 25 s each (bench/device/flowshop_50_jobs.sh)
      bash bench/device/flowshop_50_jobs.sh
      ;;
    ivm-idle)  # ivm's idle share: ta023 and ta021 forward at the optimum, ta042 from scratch (bench/device/ivm_idle.sh)
      OUT="$out" bash bench/device/ivm_idle.sh 2 "head head+slice=0" ta023 ta021 ta042 2>&1 | tee "$out/ivm-idle.log" | tail -40
      ;;
    fifty-ten-minutes)  # issue 50: ta041-ta050 from scratch while ten minutes last, node rates and idle shares
      OUT="$out" FIFTY_BUDGET=600 FIFTY_LIMIT=300 bash bench/device/ivm_idle.sh 1 head fifty 2>&1 |
        tee "$out/fifty.log" | grep -v "^ " | tail -15
      ;;
    flowshop-scratch-small)  # ta001-ta020 from scratch: forward LB2, then two ends with lb=3 (the defaults); warm start
      python3 bench/run.py bench/flowshop_scratch_small_gpu.json --permjit "$(command -v permjit)" \
        --out "$out/flowshop-scratch-small.jsonl" 2>&1 | tee "$out/flowshop-scratch-small.log"
      ;;
    decision)  # goal find, --target, --list on dfs/ivm (and cpu): bench/decision.sh
      bash bench/decision.sh "$out/decision.jsonl" 2>&1 | tee "$out/decision.log"
      ;;
    test-decision)  # the decision and enumeration GPU tests alone
      permjit_gpu_tests "[decision]" --durations yes 2>&1 | tee "$out/gpu-tests-decision.log" | tail -30
      ;;
    nqueens-symmetry)  # N-Queens 19 and 20 with nqueens.toml's declared symmetry (issue 17's bars)
      python3 bench/run.py bench/nqueens_symmetry_gpu.json --permjit "$(command -v permjit)" \
        --out "$out/nqueens-symmetry.jsonl" 2>&1 | tee "$out/nqueens-symmetry.log"
      ;;
    nqueens-group)  # N-Queens 19-21 under the eight symmetries (issue 48, nqueens_symmetries.toml) beside the mirror (nqueens.toml)
      python3 bench/run.py bench/nqueens_group_gpu.json --permjit "$(command -v permjit)" \
        --out "$out/nqueens-group.jsonl" 2>&1 | tee "$out/nqueens-group.log"
      ;;
    nqueens-22)  # N-Queens 22 under the eight symmetries (issue 48's bar: 90 s of search)
      python3 bench/run.py bench/nqueens_q22_gpu.json --permjit "$(command -v permjit)" \
        --out "$out/nqueens-22.jsonl" 2>&1 | tee "$out/nqueens-22.log"
      ;;
    test-nqueens)  # the GPU skeletons' N-Queens tests (dfs, ivm, cdp, rec against the cpu skeleton)
      timeout 70 permjit_gpu_tests "[nqueens]" --durations yes 2>&1 | tee "$out/gpu-tests-nqueens.log" | tail -30
      ;;
    nqueens-ivm-block)  # N-Queens 19 with ivm blocks of 64, 96 and 256 threads (rows per block, blocks per SM)
      python3 bench/run.py bench/nqueens_ivm_block.json --permjit "$(command -v permjit)" \
        --out "$out/nqueens-ivm-block.jsonl" 2>&1 | tee "$out/nqueens-ivm-block.log"
      ;;
    ivm-far-probes)  # thieves that probe beyond their hypercube neighbours: N-Queens 19-21, br17, ta022/ta029 defaults
      python3 bench/run.py bench/ivm_far_probes.json --permjit "$(command -v permjit)" \
        --out "$out/ivm-far-probes.jsonl" 2>&1 | tee "$out/ivm-far-probes.log"
      ;;
    nqueens-21)  # N-Queens 21 with ivm and the declared symmetry (issue 17 asks for it reported)
      python3 bench/run.py bench/nqueens_q21_gpu.json --permjit "$(command -v permjit)" \
        --out "$out/nqueens-21.jsonl" 2>&1 | tee "$out/nqueens-21.log"
      ;;
    ivm-min-blocks)  # ivm's explore kernels with registers capped for 3 or 4 blocks per SM: flowshop defaults, N-Queens 19
      bash bench/device/ivm_min_blocks.sh "$out" 2>&1 | tee "$out/ivm-min-blocks.log"
      ;;
    ivm-trigger-check)  # the ivm trigger below a quarter of T: N-Queens 19 (T = 92,928) and ta022 with the defaults
      python3 bench/run.py bench/ivm_trigger_check.json --permjit "$(command -v permjit)" \
        --out "$out/ivm-trigger-check.jsonl" 2>&1 | tee "$out/ivm-trigger-check.log"
      ;;
    ivm-loop-check)  # the ivm explorer's loop on other problems: N-Queens without symmetry, br17, forward flowshop
      python3 bench/run.py bench/ivm_loop_check.json --permjit "$(command -v permjit)" \
        --out "$out/ivm-loop-check.jsonl" 2>&1 | tee "$out/ivm-loop-check.log"
      ;;
    profile-ivm)  # Nsight Compute on one ivm explore launch: ta029, two ends (lb=3) beside forward (lb=2)
      bash bench/device/profile_ivm.sh "$out" detail 2>&1 | tee "$out/profile-ivm.log"
      ;;
    profile-ivm-nqueens)  # Nsight Compute on one ivm explore launch of N-Queens 18, default rows and all shared
      bash bench/device/profile_ivm.sh "$out" nqueens 2>&1 | tee "$out/profile-ivm-nqueens.log"
      ;;
    profile-ivm-rounds)  # Nsight Compute on every ivm explore launch of two-ended ta029 and ta022: round lengths
      bash bench/device/profile_ivm.sh "$out" rounds 2>&1 | tee "$out/profile-ivm-rounds.log"
      ;;
    flowshop-two-ends-scratch-a)  # ivm, two ends, lb=3, from scratch: ta021, ta022, ta024, ta025
      python3 bench/run.py bench/flowshop_two_ends_scratch_a.json --permjit "$(command -v permjit)" \
        --out "$out/flowshop-two-ends-scratch.jsonl" 2>&1 | tee -a "$out/flowshop-two-ends-scratch.log"
      ;;
    flowshop-two-ends-scratch-b)  # the same: ta023, ta026-ta030
      python3 bench/run.py bench/flowshop_two_ends_scratch_b.json --permjit "$(command -v permjit)" \
        --out "$out/flowshop-two-ends-scratch.jsonl" 2>&1 | tee -a "$out/flowshop-two-ends-scratch.log"
      ;;
    test-ivm)
      permjit_gpu_tests "[ivm]" --durations yes 2>&1 | tee "$out/gpu-tests-ivm.log" | tail -30
      ;;
    compile-matrix)  # issue 15's matrix: flowshop, ATSP, QAP per data mode; N-Queens, Korf per NVRTC threads
      OUT="$out" bash bench/device/compile_matrix.sh 2>&1 | tee "$out/compile-matrix.log"
      ;;
    compile-cold)  # ivm on ta022/029/030 at the optimum: each with an empty cache (cold), then again (warm)
      bash bench/compile_cold.sh "$out/compile-cold.jsonl" 2>&1 | tee "$out/compile-cold.log"
      ;;
    [0-9]*)  # a number: N-Queens of that size
      permjit solve problems/nqueens.toml --param "n=$mode" --backend gpu 2>&1 | tee -a "$out/solve.log"
      ;;
    *)
      echo "on_device.sh: unknown mode '$mode' (see the modes at the top of this file)" | tee -a "$out/device.txt"
      exit 2
      ;;
  esac
done
