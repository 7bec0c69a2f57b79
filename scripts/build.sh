#!/usr/bin/env bash
# Configures and builds permjit into build/ (or $PERMJIT_BUILD_DIR): every target, or
# those named (scripts/quickstart.sh builds the CLI alone: `build.sh permjit`).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${PERMJIT_BUILD_DIR:-build}"
cuda_root="${CUDAToolkit_ROOT:-/usr/local/cuda}"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUDAToolkit_ROOT="$cuda_root" >/dev/null
cmake --build "$build" -j "$(nproc)" ${1:+--target "$@"}
