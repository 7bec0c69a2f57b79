#!/usr/bin/env bash
# Builds another revision's permjit CLI from that revision's own tree, for comparing two
# builds: scripts/emit_identical.sh (what the generator emits) and the regression suite's
# baseline build (bench/device/prepare.sh, PREPARE_BASE=1).
#   bash scripts/build_rev.sh REV DIR    # prints the CLI's path, DIR/build/bin/permjit
# DIR gets REV's files (git archive) unless it holds a tree already, so a second call
# only rebuilds (ccache makes that cheap). The build log is DIR/build.log.
set -euo pipefail
rev="$1"
dir="$2"
root="$(cd "$(dirname "$0")/.." && pwd)"
inst="$(cd "${PERMJIT_INSTANCES_DIR:-$root/../shared/instances}" && pwd)"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
[ -f "$dir/CMakeLists.txt" ] || git -C "$root" archive "$rev" | tar -x -C "$dir"
# The tree's configure looks for the instances at ../shared/instances.
[ -e "$dir/../shared" ] || ln -s "$(dirname "$inst")" "$dir/../shared"
PERMJIT_BUILD_DIR="$dir/build" bash "$dir/scripts/build.sh" permjit > "$dir/build.log" 2>&1 ||
  { tail -20 "$dir/build.log" >&2; exit 2; }
echo "$dir/build/bin/permjit"
