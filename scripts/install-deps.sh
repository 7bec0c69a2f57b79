#!/usr/bin/env bash
# Installs the Debian packages permjit needs, if any is missing, and checks that the
# CUDA toolkit (NVRTC and its headers) is present. Safe to run again.
set -euo pipefail

packages=(cmake g++ make python3 libtomlplusplus-dev catch2 libcli11-dev libfmt-dev
          nlohmann-json3-dev libxxhash-dev llvm-14-tools)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

cuda_root="${CUDAToolkit_ROOT:-/usr/local/cuda}"
if ! ls "$cuda_root"/lib64/libnvrtc.so* >/dev/null 2>&1 && ! command -v nvcc >/dev/null 2>&1; then
  echo "error: the CUDA toolkit (NVRTC) was not found under $cuda_root; set CUDAToolkit_ROOT" >&2
  exit 1
fi
