#!/usr/bin/env bash
# The host compiler of the sanitizer build (scripts/sanitize.sh sets PERMJIT_CXX to this
# file): the generated modules get ASan and UBSan as permjit does. Its version line
# names the sanitizers, so that the module cache keeps these modules apart from plain ones.
set -euo pipefail
cxx="${PERMJIT_SANITIZE_CXX:-c++}"
for a in "$@"; do
  if [ "$a" = "--version" ]; then
    "$cxx" --version | sed '1s/$/ (with -fsanitize=address,undefined)/'
    exit 0
  fi
done
exec "$cxx" -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer "$@"
