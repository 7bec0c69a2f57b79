#!/usr/bin/env bash
# Builds and runs every test: unit, NVRTC, lit/FileCheck and end-to-end. Tests that
# need a GPU are labelled `gpu` and skip (visibly) when there is none.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
cd "${PERMJIT_BUILD_DIR:-build}"
ctest --output-on-failure -j "$(nproc)" "$@"
