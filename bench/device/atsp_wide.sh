#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-bin (and .whl for CP-SAT)
# carried: the ATSPs of more than 64 cities, which sets of 128 bits opened (issue 45).
# First the GPU tests of 128-bit sets ($OUT/gpu-tests-wide.log; GPU_TESTS="" skips them),
# then bench/device/atsp_side_by_side.sh on WIDE_INSTANCES (default ftv64 ft70 ftv70
# kro124p) with the defaults, each stopped at WIDE_LIMIT s of search (default 60), and
# CP-SAT with 16 workers on the same instances.
set -uo pipefail
source bench/device/solve_log.sh
if [ -n "${GPU_TESTS-[wide]}" ]; then
  # -k: a solve stops at SIGTERM and the next test case would start.
  (cd /tmp && timeout -k 5 "${GPU_TESTS_LIMIT:-300}" permjit_gpu_tests "${GPU_TESTS-[wide]}" --durations yes 2>&1 |
     tee "$OUT/gpu-tests-wide.log" | tail -6)
fi
ATSP_INSTANCES="${WIDE_INSTANCES:-ftv64 ft70 ftv70 kro124p}" ATSP_LIMIT="${WIDE_LIMIT:-60}" \
  CPSAT_LIMIT="${CPSAT_LIMIT:-120}" bash bench/device/atsp_side_by_side.sh default/default
