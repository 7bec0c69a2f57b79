#!/usr/bin/env bash
# Configures and builds permjit into build/ (or $PERMJIT_BUILD_DIR): every target, or
# those named (scripts/quickstart.sh builds the CLI alone: `build.sh permjit`).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${PERMJIT_BUILD_DIR:-build}"
cuda_root="${CUDAToolkit_ROOT:-/usr/local/cuda}"
# The Python module (python/, its tests in tests/python) when nanobind is there for
# python3 (scripts/install-deps.sh installs it); without it ctest shows them skipped.
python=()
if python3 -c "import nanobind" 2>/dev/null; then
  python=(-DPERMJIT_PYTHON=ON -DPython_EXECUTABLE="$(command -v python3)")
else
  echo "warning: nanobind not found for python3: the Python module and its tests are not built" >&2
fi
# ccache, when installed, makes rebuilds of other checkouts of the tree cheap.
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUDAToolkit_ROOT="$cuda_root" "${python[@]}" "${launcher[@]}" >/dev/null
cmake --build "$build" -j "$(nproc)" ${1:+--target "$@"}
