// The builtins table.
//
// How to add a builtin:
//   1. Add its id to `enum class Builtin` (dsl/builtins.hpp), in its form's group.
//   2. Add one entry to kBuiltins below: its name, form and type, and what its form
//      needs: a name's meaning and where it is defined; a function's argument count and
//      types and `eval` (its value before the search, for static_eval); a reduction's
//      body type and `fold`; a two-set reduction's shape and whether its cost is a
//      matrix. The parser, the reserved names, the checker (arity, argument types,
//      messages, suggestions) and static_eval read the entry and need no change.
//   3. Write its emitter: a case in ExprEmitter::call (generator/emit_expr.cpp) for a
//      function, or beside the others of its form (ExprEmitter::reduce,
//      generator/emit_pair_reduce.cpp); an id an emitter does not handle is an internal
//      error there, never a silent fallback.
//   4. Where the generator should know more of its values than its type says, a case in
//      generator/int_width.cpp and generator/value_range.cpp (without one, an int result
//      is taken to be any int32 or unknown, a bool 0 or 1: safe, only less narrow).
//   5. Document it in docs/spec-language.md and test it (tests/unit/checker_test.cpp,
//      a lit test of its emitted code, a differential test against the cpu skeleton).
#include "dsl/builtins.hpp"

#include <algorithm>
#include <bit>
#include <iterator>

#include "dsl/diagnostics.hpp"

namespace permjit {
namespace {

// Two's-complement arithmetic, as the generated code's (docs/reliability.md).
int64_t wrap_neg(int64_t x) { return static_cast<int64_t>(0 - static_cast<uint64_t>(x)); }
int64_t wrap_add(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)); }

using B = Builtin;
using F = BuiltinForm;
constexpr Type kInt = Type::int_, kBits = Type::bits, kBool = Type::bool_;

const BuiltinInfo kBuiltins[] = {
    // Names.
    {.id = B::d, .name = "d", .form = F::name, .type = kInt, .meaning = "depth: the number of values placed"},
    {.id = B::last, .name = "last", .form = F::name, .type = kInt, .meaning = "the value placed last"},
    {.id = B::first, .name = "first", .form = F::name, .type = kInt, .meaning = "the value placed first"},
    {.id = B::free, .name = "free", .form = F::name, .type = kBits, .meaning = "the set of values not yet placed"},
    {.id = B::all, .name = "all", .form = F::name, .type = kBits, .meaning = "the set of all values 0..size-1",
     .at_node = false, .in_path = true},
    {.id = B::v, .name = "v", .form = F::name, .type = kInt, .meaning = "the value being placed", .needs_value = true,
     .at_node = false},
    {.id = B::perm, .name = "perm", .form = F::name, .type = kInt, .meaning = "the node's permutation",
     .in_path = true, .path_only = true, .dims = 1},

    // Functions.
    {.id = B::min, .name = "min", .form = F::call, .type = kInt, .min_args = 2, .max_args = kAnyCount,
     .arg_types = {kInt, kInt}, .eval = [](std::span<const int64_t> a) { return *std::min_element(a.begin(), a.end()); }},
    {.id = B::max, .name = "max", .form = F::call, .type = kInt, .min_args = 2, .max_args = kAnyCount,
     .arg_types = {kInt, kInt}, .eval = [](std::span<const int64_t> a) { return *std::max_element(a.begin(), a.end()); }},
    {.id = B::abs, .name = "abs", .form = F::call, .type = kInt, .min_args = 1, .max_args = 1, .arg_types = {kInt, kInt},
     .eval = [](std::span<const int64_t> a) { return a[0] < 0 ? wrap_neg(a[0]) : a[0]; }},
    {.id = B::bit, .name = "bit", .form = F::call, .type = kBits, .min_args = 1, .max_args = 1, .arg_types = {kInt, kInt},
     .eval = [](std::span<const int64_t> a) {
       return a[0] >= 0 && a[0] < 64 ? static_cast<int64_t>(uint64_t{1} << a[0]) : int64_t{0};
     }},
    {.id = B::test, .name = "test", .form = F::call, .type = kBool, .min_args = 2, .max_args = 2,
     .arg_types = {kBits, kInt},
     .eval = [](std::span<const int64_t> a) {
       return a[1] >= 0 && a[1] < 64 ? static_cast<int64_t>((static_cast<uint64_t>(a[0]) >> a[1]) & 1) : int64_t{0};
     }},
    {.id = B::popcount, .name = "popcount", .form = F::call, .type = kInt, .min_args = 1, .max_args = 1,
     .arg_types = {kBits, kBits},
     .eval = [](std::span<const int64_t> a) { return int64_t{std::popcount(static_cast<uint64_t>(a[0]))}; }},
    {.id = B::lowest, .name = "lowest", .form = F::call, .type = kInt, .min_args = 1, .max_args = 1,
     .arg_types = {kBits, kBits},
     .eval = [](std::span<const int64_t> a) {
       return a[0] == 0 ? int64_t{-1} : int64_t{std::countr_zero(static_cast<uint64_t>(a[0]))};
     }},

    // Reductions.
    {.id = B::sum, .name = "sum", .form = F::reduce, .type = kInt, .body = kInt, .fold = wrap_add},
    {.id = B::count, .name = "count", .form = F::reduce, .type = kInt, .body = kBool,
     .fold = [](int64_t acc, int64_t term) { return acc + term; }},
    {.id = B::min_of, .name = "min", .form = F::reduce, .type = kInt, .body = kInt,
     .fold = [](int64_t acc, int64_t term) { return std::min(acc, term); }},
    {.id = B::max_of, .name = "max", .form = F::reduce, .type = kInt, .body = kInt,
     .fold = [](int64_t acc, int64_t term) { return std::max(acc, term); }},

    // Two-set reductions (docs/spec-language.md, "Two-set reductions").
    {.id = B::assign, .name = "assign", .form = F::pair_reduce, .type = kInt,
     .shape = "assign(i in S, j in T: cost)", .cost_matrix = true, .then = B::arborescence},
    {.id = B::arborescence, .name = "arborescence", .form = F::pair_reduce, .type = kInt,
     .shape = "arborescence(i in S, j in T: cost)", .cost_matrix = true},
    {.id = B::minprod, .name = "minprod", .form = F::pair_reduce, .type = kInt,
     .shape = "minprod(x in S: a, y in T: b)", .cost_matrix = false},
    {.id = B::dualassign, .name = "dualassign", .form = F::pair_reduce, .type = kInt,
     .shape = "dualassign(i in S, j in T: cost, k, l: pair cost, rounds)", .cost_matrix = true, .pair_cost = true,
     .node_only = true},

    {.id = B::argsort, .name = "argsort", .form = F::argsort, .type = kInt},
};

}  // namespace

const BuiltinInfo* builtin_named(std::string_view name, BuiltinForm form) {
  for (const BuiltinInfo& b : kBuiltins)
    if (b.form == form && b.name == name) return &b;
  return nullptr;
}

const BuiltinInfo& builtin_info(Builtin id) {
  for (const BuiltinInfo& b : kBuiltins)
    if (b.id == id) return b;
  PJ_INTERNAL_ASSERT(false, "a builtin missing from kBuiltins");
  return kBuiltins[0];
}

std::span<const BuiltinInfo> builtins() { return kBuiltins; }

}  // namespace permjit
