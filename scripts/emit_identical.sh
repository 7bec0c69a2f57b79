#!/usr/bin/env bash
# Whether a change of dsl/, generator/ or templates/ leaves what permjit generates as it
# was: `permjit emit` of every stage that needs no GPU (spec, source, and each skeleton's
# host unit `cpu` and device unit `cuda`) for every spec in problems/ and the lit specs
# (tests/lit/Inputs), each with a small instance and its parameter variants, from a base
# build and from this tree's build, compared byte for byte. Where a device unit's text
# differs (text moved from the generator into templates changes the translation unit),
# both units are compiled by NVRTC (`--stage ptx`, no GPU needed) and their PTX compared:
# the change is accepted when every PTX is identical. Exits 1 on any other difference.
#   bash scripts/emit_identical.sh BASE_REV          # builds BASE_REV's CLI in a scratch tree
#   PERMJIT_BASE=path/to/permjit bash scripts/emit_identical.sh   # a base binary at hand
# PERMJIT_NEW (default build/bin/permjit) is the build under test; EMIT_PTX=all compiles
# and compares the PTX of every device unit, not only of those whose text differs.
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
  mkdir -p "$work/base"
  git archive "$rev" | tar -x -C "$work/base"
  PERMJIT_BUILD_DIR="$work/base/build" bash "$work/base/scripts/build.sh" permjit >"$work/base-build.log" 2>&1 ||
    { tail -20 "$work/base-build.log"; exit 2; }
  base="$work/base/build/bin/permjit"
fi
[[ -x "$base" && -x "$new" ]] || { echo "missing binary: $base or $new" >&2; exit 2; }

inputs="$root/tests/lit/Inputs"
# One case a line: a name, then the spec and its options.
cases=(
  "atsp-lb0|problems/atsp.toml --instance $inputs/tiny5.atsp --param lb=0"
  "atsp|problems/atsp.toml --instance $inputs/tiny5.atsp"
  "atsp-br17|problems/atsp.toml --instance $inst/atsp/br17.atsp"
  "flowshop|problems/flowshop.toml --instance $inputs/tiny6x3.txt"
  "flowshop-fwd-lb1|problems/flowshop.toml --instance $inputs/tiny6x3.txt --param branching=1 --param lb=1"
  "flowshop-fwd-lb2|problems/flowshop.toml --instance $inputs/tiny6x3.txt --param branching=1 --param lb=2"
  "flowshop-fwd-lb3|problems/flowshop.toml --instance $inputs/tiny6x3.txt --param branching=1 --param lb=3"
  "flowshop-ta022|problems/flowshop.toml --instance $inst/flowshop/ta022.txt --param branching=1 --param lb=2"
  "nqueens|problems/nqueens.toml --param n=8"
  "puzzle15|problems/puzzle15.toml --instance $inputs/korf2.txt"
  "puzzle8|problems/puzzle15.toml --instance $inputs/eight1.txt"
  "qap-lb0|problems/qap.toml --instance $inputs/tiny4.dat --param lb=0"
  "qap-lb1|problems/qap.toml --instance $inputs/tiny4.dat --param lb=1"
  "qap|problems/qap.toml --instance $inputs/tiny4.dat"
  "arith|$inputs/arith.toml"
  "complement-sets|$inputs/complement_sets.toml"
  "free-reductions|$inputs/free_reductions.toml --instance $inputs/free_reductions.txt"
  "history-queens|$inputs/history_queens.toml --param n=8"
)
skeletons=$("$new" skeletons 2>/dev/null | awk 'NF && $1 ~ /^[a-z][a-z0-9-]*$/ {print $1}' | sort -u)
[[ -n "$skeletons" ]] || { echo "no skeletons listed by '$new skeletons'" >&2; exit 2; }

same=0 differ=0 ptx_same=0 fail=0
emit() {  # binary out-file args...
  local bin="$1" out="$2"
  shift 2
  "$bin" emit "$@" >"$out" 2>"$out.err"
  echo "rc=$?" >>"$out.err"
  sed -i "s|$work|WORK|g" "$out.err"
}
compare() {  # label ptx?(0|1) args...
  local label="$1" ptx="$2"
  shift 2
  emit "$base" "$work/a" "$@"
  emit "$new" "$work/b" "$@"
  if cmp -s "$work/a" "$work/b" && cmp -s "$work/a.err" "$work/b.err"; then
    same=$((same + 1))
    [[ "$ptx" == 1 && "${EMIT_PTX:-}" == all ]] || return 0
  fi
  if [[ "$ptx" != 1 ]] || ! grep -q '^rc=0$' "$work/a.err"; then
    echo "DIFFERS: $label"
    diff "$work/a" "$work/b" | head -20
    diff "$work/a.err" "$work/b.err" | head -5
    fail=$((fail + 1))
    return 0
  fi
  cmp -s "$work/a" "$work/b" || differ=$((differ + 1))
  local args=("$@")
  args[${#args[@]}-1]=ptx  # the last argument is the stage
  emit "$base" "$work/pa" "${args[@]}"
  emit "$new" "$work/pb" "${args[@]}"
  if cmp -s "$work/pa" "$work/pb" && cmp -s "$work/pa.err" "$work/pb.err" && grep -q '^rc=0$' "$work/pa.err"; then
    ptx_same=$((ptx_same + 1))
    echo "same PTX: $label ($(wc -l <"$work/pa") lines)"
  else
    echo "DIFFERS (PTX): $label"
    diff "$work/pa" "$work/pb" | head -20
    fail=$((fail + 1))
  fi
}

for c in "${cases[@]}"; do
  name="${c%%|*}"
  read -r -a args <<<"${c#*|}"
  for stage in spec source; do compare "$name $stage" 0 "${args[@]}" --stage "$stage"; done
  for sk in $skeletons; do
    compare "$name $sk cpu" 0 "${args[@]}" --skeleton "$sk" --stage cpu
    compare "$name $sk cuda" 1 "${args[@]}" --skeleton "$sk" --stage cuda
  done
done
echo "identical text: $same; text differs, PTX identical: $ptx_same of $differ; differences: $fail"
[[ $fail == 0 ]]
