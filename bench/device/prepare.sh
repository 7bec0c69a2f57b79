#!/usr/bin/env bash
# Here (the build machine): copies what a GPU run needs into .device-bin/ (git-ignored):
# the binaries, the shared libraries a bare CUDA machine lacks, and the instances.
# Carry .device-bin to the GPU machine and run bench/device/on_device.sh there.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=.device-bin
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/instances"
for b in build/bin/permjit build/tests/permjit_gpu_tests; do
  strip --strip-debug -o "$out/bin/$(basename "$b")" "$b"  # the debug info would not fit the carry
done
for lib in libfmt.so.9 libtomlplusplus.so.3 libxxhash.so.0; do
  cp -L "$(ldconfig -p | awk -v l="$lib" '$1 == l {print $NF; exit}')" "$out/lib/"
done
# The device runtime the cdp skeleton links its kernels with: permjit looks in lib/
# beside its bin/ first, so the GPU machine uses the same one as this build.
cp -L "${CUDAToolkit_ROOT:-/usr/local/cuda}/lib64/libcudadevrt.a" "$out/lib/"
inst="${PERMJIT_INSTANCES_DIR:-../shared/instances}"
for d in atsp qap nqueens flowshop 15puzzle 24puzzle; do
  [ -d "$inst/$d" ] && cp -r "$inst/$d" "$out/instances/"
done
# PREPARE_BASE=1: also the build of the regression baseline's commit (or of
# BASE_COMMIT), for regress.sh's paired re-check: its stripped CLI as bin/permjit-base,
# its problems/ as base-problems/, its commit in BASE_COMMIT. Built in build-base/ by
# scripts/build_rev.sh (ccache makes it cheap after the first time).
if [ "${PREPARE_BASE:-0}" = 1 ]; then
  base="${BASE_COMMIT:-$(python3 -c 'import json; print(json.load(open("bench/results/regress-baseline-h100.json"))["commit"])')}"
  src="build-base/src-$base"
  bin=$(bash scripts/build_rev.sh "$base" "$src")
  strip --strip-debug -o "$out/bin/permjit-base" "$bin"
  cp -r "$src/problems" "$out/base-problems"
  echo "$base" > "$out/BASE_COMMIT"
fi
# The device copy has no .git: the commit, with "-dirty" on the same line when the tree
# has changes (log_solve labels every JSON line with it).
echo "$(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo -dirty)" > "$out/COMMIT"
du -sh "$out"
