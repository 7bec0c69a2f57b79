#!/usr/bin/env bash
# On a fresh machine: install what is missing, build the CLI, and solve N-Queens n=12 on the
# best backend this build has (the GPU when a GPU skeleton and a device are present,
# else the CPU).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh permjit  # the CLI alone; scripts/test.sh builds the tests
./build/bin/permjit solve problems/nqueens.toml --param n=12 --backend auto
