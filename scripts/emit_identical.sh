#!/usr/bin/env bash
# Whether a change of dsl/, generator/ or templates/ leaves what permjit generates as it
# was: `permjit emit` of every stage that needs no GPU (spec, source, and each skeleton's
# host unit `cpu` and device unit `cuda`) for every spec in problems/ and the lit specs
# (tests/lit/Inputs), each with a small instance and its parameter variants, from a base
# build and from this tree's build, compared byte for byte. Where a device unit's text
# differs (text moved from the generator into templates changes the translation unit),
# both units are compiled (a device unit by NVRTC, `--stage ptx`, no GPU needed; a host
# unit by the host compiler to assembly) and the code compared without its line
# information: the change is accepted when every unit compiles to the same code. `spec`
# must stay identical. Exits 1 on any other difference.
#   bash scripts/emit_identical.sh BASE_REV          # builds BASE_REV's CLI in a scratch tree
#   PERMJIT_BASE=path/to/permjit bash scripts/emit_identical.sh   # a base binary at hand
# PERMJIT_NEW (default build/bin/permjit) is the build under test; EMIT_PTX=all compiles
# and compares the PTX of every device unit, not only of those whose text differs.
# Where cpu units differ, the host compiler (c++) compiles each to assembly (~5 s each).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
new="${PERMJIT_NEW:-$root/build/bin/permjit}"
inst="${PERMJIT_INSTANCES_DIR:-$root/../shared/instances}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

base="${PERMJIT_BASE:-}"
if [[ -z "$base" ]]; then
  rev="${1:?usage: emit_identical.sh BASE_REV (or PERMJIT_BASE=permjit-binary)}"
  echo "building $rev's permjit in $work/base (the CLI only)"
  base=$(bash "$root/scripts/build_rev.sh" "$rev" "$work/base") || exit 2
fi
[[ -x "$base" && -x "$new" ]] || { echo "missing binary: $base or $new" >&2; exit 2; }

inputs="$root/tests/lit/Inputs"
# One case a line: a name, `c` where its units are compiled when their text differs
# (all with EMIT_COMPILE=all; one case a problem by default, as
# compiling costs ~2 min a case), then the spec and its options.
cases=(
  "atsp-lb0|-|problems/atsp.toml --instance $inputs/tiny5.atsp --param lb=0"
  "atsp|c|problems/atsp.toml --instance $inputs/tiny5.atsp"
  "atsp-br17|-|problems/atsp.toml --instance $inst/atsp/br17.atsp"
  "atsp-lb5|-|problems/atsp.toml --instance $inputs/tiny5.atsp --param lb=5"
  "atsp-lb6|c|problems/atsp.toml --instance $inputs/tiny5.atsp --param lb=6"
  "flowshop|c|problems/flowshop.toml --instance $inputs/tiny6x3.txt"
  "flowshop-fwd-lb1|-|problems/flowshop.toml --instance $inputs/tiny6x3.txt --param branching=1 --param lb=1"
  "flowshop-fwd-lb2|-|problems/flowshop.toml --instance $inputs/tiny6x3.txt --param branching=1 --param lb=2"
  "flowshop-fwd-lb3|-|problems/flowshop.toml --instance $inputs/tiny6x3.txt --param branching=1 --param lb=3"
  "flowshop-ta022|-|problems/flowshop.toml --instance $inst/flowshop/ta022.txt --param branching=1 --param lb=2"
  "nqueens|c|problems/nqueens.toml --param n=8"
  "nqueens-symmetries|c|problems/nqueens_symmetries.toml --param n=8"
  "puzzle15|c|problems/puzzle15.toml --instance $inst/15puzzle/korf100.txt --record 1"
  "puzzle15-pdb0|-|problems/puzzle15.toml --instance $inst/15puzzle/korf100.txt --record 1 --param pdb=0"
  "puzzle8|-|problems/puzzle15.toml --instance $inputs/eight1.txt --param w=3"
  "qap-lb0|-|problems/qap.toml --instance $inputs/tiny4.dat --param lb=0"
  "qap-lb1|c|problems/qap.toml --instance $inputs/tiny4.dat --param lb=1"
  "qap|-|problems/qap.toml --instance $inputs/tiny4.dat"
  "qap-lb3|c|problems/qap.toml --instance $inputs/tiny4.dat --param lb=3"
  "arith|-|$inputs/arith.toml"
  "complement-sets|-|$inputs/complement_sets.toml"
  "free-reductions|-|$inputs/free_reductions.toml --instance $inputs/free_reductions.txt"
  "history-queens|-|$inputs/history_queens.toml --param n=8"
)
skeletons=$("$new" skeletons 2>/dev/null | awk 'NF && $1 ~ /^[a-z][a-z0-9-]*$/ {print $1}' | sort -u)
[[ -n "$skeletons" ]] || { echo "no skeletons listed by '$new skeletons'" >&2; exit 2; }

same=0 differ=0 code_same=0 unchecked=0 fail=0
emit() {  # binary out-file args...
  local bin="$1" out="$2"
  shift 2
  "$bin" emit "$@" >"$out" 2>"$out.err"
  echo "rc=$?" >>"$out.err"
}
# What a unit compiles to, without its line information: PTX (NVRTC compiles with
# -lineinfo) less its .loc and .file lines and the debug strings that name inlined
# functions; host assembly (the host compiler's optimisation, without -march=native,
# so the same on every machine) with its local labels renumbered in order
# (scripts/asm_normalise.py: a function more or less shifts every number).
ptx_code() { sed -n '/^\s*\.section\s*\.debug_str/q;p' "$1" | grep -v -E '^\s*\.(loc|file)\b'; }
host_code() {  # a unit's text is compiled once (skeletons share their host unit)
  local key
  key="$work/host-$(sha1sum <"$1" | cut -c1-16)"
  if [[ ! -f "$key" ]]; then
    c++ -std=c++17 -O3 -pthread -w -S -o "$key.s" -x c++ "$1" 2>"$key.err" || { echo "host compile failed"; cat "$key.err"; return; }
    python3 "$root/scripts/asm_normalise.py" <"$key.s" >"$key"
  fi
  cat "$key"
}
compare() {  # label kind(text|cuda|cpu) compile?(c|-) args... (the last argument is the stage)
  local label="$1" kind="$2" compile="$3"
  shift 3
  emit "$base" "$work/a" "$@" &
  emit "$new" "$work/b" "$@"
  wait
  if cmp -s "$work/a" "$work/b" && cmp -s "$work/a.err" "$work/b.err"; then
    same=$((same + 1))
    [[ "$kind" == cuda && "${EMIT_PTX:-}" == all ]] || return 0
  elif [[ "$kind" == text ]] || ! grep -q '^rc=0$' "$work/a.err"; then
    echo "DIFFERS: $label"
    diff "$work/a" "$work/b" | head -20
    diff "$work/a.err" "$work/b.err" | head -5
    fail=$((fail + 1))
    return 0
  elif [[ "$compile" != c && "${EMIT_COMPILE:-}" != all ]]; then
    echo "text differs, not compiled: $label"
    unchecked=$((unchecked + 1))
    return 0
  else
    differ=$((differ + 1))
  fi
  local what
  if [[ "$kind" == cuda ]]; then
    local args=("$@")
    args[${#args[@]}-1]=ptx
    emit "$base" "$work/pa" "${args[@]}" &
    emit "$new" "$work/pb" "${args[@]}"
    wait
    ptx_code "$work/pa" >"$work/ca"
    ptx_code "$work/pb" >"$work/cb"
    what=PTX
  else
    host_code "$work/a" >"$work/ca" &
    host_code "$work/b" >"$work/cb"
    wait
    what="host assembly"
  fi
  if cmp -s "$work/ca" "$work/cb" && [[ -s "$work/ca" ]]; then
    code_same=$((code_same + 1))
    echo "same $what: $label ($(wc -l <"$work/ca") lines)"
  else
    echo "DIFFERS ($what): $label"
    diff "$work/ca" "$work/cb" | head -20
    fail=$((fail + 1))
  fi
}

for c in "${cases[@]}"; do
  IFS='|' read -r name compile rest <<<"$c"
  read -r -a args <<<"$rest"
  compare "$name spec" text - "${args[@]}" --stage spec
  # The problem source alone: where it differs, each unit that holds it is compiled.
  emit "$base" "$work/a" "${args[@]}" --stage source
  emit "$new" "$work/b" "${args[@]}" --stage source
  if cmp -s "$work/a" "$work/b" && cmp -s "$work/a.err" "$work/b.err"; then same=$((same + 1)); else
    echo "source text differs: $name (its units are compared compiled)"
  fi
  for sk in $skeletons; do
    compare "$name $sk cpu" cpu "$compile" "${args[@]}" --skeleton "$sk" --stage cpu
    compare "$name $sk cuda" cuda "$compile" "${args[@]}" --skeleton "$sk" --stage cuda
  done
done
echo "identical text: $same; text differs, compiled code identical: $code_same of $differ;" \
  "text differs, not compiled: $unchecked; differences: $fail"
[[ $fail == 0 ]]
