#!/usr/bin/env bash
# Builds one libFuzzer harness of tests/fuzz/ with clang, ASan and UBSan into
# build-fuzz/ (or $PERMJIT_FUZZ_BUILD_DIR) and runs it for SECONDS on its corpus.
#   scripts/fuzz.sh NAME SECONDS [libFuzzer options...]
# NAME: spec_to_source | instance_reader | record_list | ivm_checkpoint | range_checkpoint |
# cli_options.
# New inputs go to build-fuzz/corpus/NAME (the committed seeds stay as they are); a
# crash leaves crash-* in build-fuzz/findings/NAME. Copy an input that found a bug
# into tests/fuzz/corpus/NAME so that the replay test keeps checking it.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  echo "usage: scripts/fuzz.sh NAME SECONDS [libFuzzer options...]" >&2
  exit 1
fi
name="$1" seconds="$2"
shift 2
build="${PERMJIT_FUZZ_BUILD_DIR:-build-fuzz}"
cuda_root="${CUDAToolkit_ROOT:-/usr/local/cuda}"
# The tests' configuration needs the benchmark instances: $PERMJIT_INSTANCES_DIR when set
# (a worktree is not always beside ../shared).
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUDAToolkit_ROOT="$cuda_root" \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DPERMJIT_FUZZ=ON \
  ${PERMJIT_INSTANCES_DIR:+-DPERMJIT_INSTANCES_DIR="$PERMJIT_INSTANCES_DIR"} >/dev/null
cmake --build "$build" -j "$(nproc)" --target "fuzz_$name"
root="$PWD"
mkdir -p "$build/corpus/$name" "$build/findings/$name"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# With -jobs=1 libFuzzer runs the search in a child whose output goes to fuzz-0.log in
# the current folder: the findings folder. Its last lines are the totals.
cd "$build/findings/$name"
status=0
"$root/$build/fuzz/fuzz_$name" -max_total_time="$seconds" -jobs=1 -timeout=10 -rss_limit_mb=4096 \
  -artifact_prefix="$root/$build/findings/$name/" "$@" "$root/$build/corpus/$name" "$root/tests/fuzz/corpus/$name" || status=$?
tail -n 5 fuzz-0.log 2>/dev/null || true
exit "$status"
