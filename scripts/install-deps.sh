#!/usr/bin/env bash
# Installs the Debian packages permjit needs, if any is missing, and checks that the
# CUDA toolkit (NVRTC and its headers) is present. Safe to run again.
set -euo pipefail

packages=(cmake g++ make python3 python3-dev python3-pip libtomlplusplus-dev catch2 libcli11-dev libfmt-dev
          nlohmann-json3-dev libxxhash-dev llvm-14-tools
          libopenmpi-dev openmpi-bin)
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

# The Python package: nanobind builds its module (scripts/build.sh, pip install .),
# pytest and numpy run its tests (tests/python). From PyPI, for the python3 on PATH; a
# Debian python3 that refuses pip (PEP 668) gets them in the user's site-packages.
py_missing=()
for m in nanobind pytest numpy; do
  python3 -c "import $m" 2>/dev/null || py_missing+=("$m")
done
if ((${#py_missing[@]})); then
  echo "installing for python3: ${py_missing[*]}"
  python3 -m pip install -q "${py_missing[@]}" 2>/dev/null ||
    python3 -m pip install -q --user --break-system-packages "${py_missing[@]}"
fi

cuda_root="${CUDAToolkit_ROOT:-/usr/local/cuda}"
if ! ls "$cuda_root"/lib64/libnvrtc.so* >/dev/null 2>&1 && ! command -v nvcc >/dev/null 2>&1; then
  echo "error: the CUDA toolkit (NVRTC) was not found under $cuda_root; set CUDAToolkit_ROOT" >&2
  exit 1
fi

# `permjit emit --stage sass` runs cuobjdump and nvdisasm; a toolkit without them (the
# NVRTC-only installs) gets them from NVIDIA's wheels of the same major version,
# unpacked where permjit looks (tools/permjit/emit_command.cpp). Not fatal: only the
# sass stage needs them, and its test is skipped without them.
tools="${PERMJIT_CUDA_TOOLS:-${XDG_DATA_HOME:-$HOME/.local/share}/permjit/cuda-tools}"
have_tool() { command -v "$1" >/dev/null 2>&1 || [ -x "$cuda_root/bin/$1" ] || [ -x "$tools/bin/$1" ]; }
if ! have_tool cuobjdump || ! have_tool nvdisasm; then
  major=$( (ls "$cuda_root"/lib64/libnvrtc.so.* 2>/dev/null || true) | sed -n 's/.*libnvrtc\.so\.\([0-9]*\).*/\1/p' | head -1)
  if [ -n "$major" ] && python3 -m pip --version >/dev/null 2>&1; then
    wheels=$(mktemp -d)
    if python3 -m pip download -q --no-deps -d "$wheels" "nvidia-cuda-cuobjdump==$major.*" "nvidia-cuda-nvdisasm==$major.*" \
        >/dev/null 2>&1; then
      mkdir -p "$tools/bin"
      python3 - "$wheels" "$tools/bin" <<'PY'
import os, sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
for w in os.listdir(src):
    with zipfile.ZipFile(os.path.join(src, w)) as z:
        for n in z.namelist():
            if n.endswith("/bin/cuobjdump") or n.endswith("/bin/nvdisasm"):
                out = os.path.join(dst, os.path.basename(n))
                with open(out, "wb") as f:
                    f.write(z.read(n))
                os.chmod(out, 0o755)
PY
      echo "installed cuobjdump and nvdisasm (CUDA $major wheels) in $tools/bin"
    else
      echo "warning: cuobjdump/nvdisasm not found and not downloadable: emit --stage sass is unavailable" >&2
    fi
    rm -rf "$wheels"
  fi
fi
