# Sourced on the GPU machine: where the carried binaries, libraries and instances are.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export PATH="$root/.device-bin/bin:$PATH"
export LD_LIBRARY_PATH="$root/.device-bin/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export PERMJIT_SOURCE_DIR="$root"
export PERMJIT_INSTANCES_DIR="$root/.device-bin/instances"
export PERMJIT_TEST_CACHE_DIR="/tmp/permjit-test-cache"
export PERMJIT_CACHE_DIR="/tmp/permjit-cache"
