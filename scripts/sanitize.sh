#!/usr/bin/env bash
# Builds permjit and its tests with ASan and UBSan (GCC, -DPERMJIT_SANITIZE=ON) into
# build-asan/ (or $PERMJIT_SANITIZE_BUILD_DIR) and runs the unit and e2e tests, or the
# ctest arguments given:  scripts/sanitize.sh [-R regex | -L label ...]
# The modules the CPU backend compiles at run time are sanitized too: the host compiler
# is scripts/sanitize-cxx.sh, which adds the same flags (docs/reliability.md says why).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${PERMJIT_SANITIZE_BUILD_DIR:-build-asan}"
cuda_root="${CUDAToolkit_ROOT:-/usr/local/cuda}"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUDAToolkit_ROOT="$cuda_root" -DPERMJIT_SANITIZE=ON >/dev/null
cmake --build "$build" -j "$(nproc)"
export PERMJIT_CXX="$PWD/scripts/sanitize-cxx.sh"
# The CUDA driver maps memory where ASan keeps its shadow gap; a UBSan report fails the test.
export ASAN_OPTIONS="${ASAN_OPTIONS:-protect_shadow_gap=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
cd "$build"
if [ $# -eq 0 ]; then set -- -L 'unit|e2e'; fi
ctest --output-on-failure -j "$(nproc)" "$@"
