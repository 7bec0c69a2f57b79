// The builtins of the expression language in one table (dsl/builtins.cpp): the node's
// names (d, v, free, ...), the functions (min(a, b), bit(i), ...), the reductions
// (sum(x in S: body), ...), the two-set reductions (assign, arborescence, minprod,
// dualassign) and argsort. The parser and the checker find a builtin here by its name,
// once; the checker stores the entry's id in the tree (Expr::builtin, Symbol::builtin),
// and every later stage (static_eval, the generator's int_width, value_range and
// emitters) dispatches on that id, never on the name (docs/decisions.md, "Builtins by
// handle").
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "dsl/ast.hpp"

namespace permjit {

// How a builtin is written, which is also where the parser and checker look for it.
enum class BuiltinForm : uint8_t { name, call, reduce, pair_reduce, argsort };

// A call's arguments: their number and each one's type (the last type repeats).
inline constexpr uint8_t kAnyCount = 255;

struct BuiltinInfo {
  Builtin id;
  std::string_view name;
  BuiltinForm form;
  // name: its type (an array's element type); call and reduce: the result's.
  Type type = Type::int_;

  // --- name ---
  const char* meaning = "";  // for messages
  bool needs_value = false;  // only where a value is being placed (branch.filter, branch.place)
  bool at_node = true;       // only at a node, not in values computed before the search
  bool in_path = false;      // defined in a path problem (goal = "path") too
  bool path_only = false;    // defined in a path problem only
  uint8_t dims = 0;          // an array of this many dimensions (sized once the size is known)

  // --- call ---
  uint8_t min_args = 0, max_args = 0;  // max_args kAnyCount: no limit
  std::array<Type, 2> arg_types{};     // argument i's type, the last repeating
  // Its value before the search, from the arguments' values (static_eval).
  int64_t (*eval)(std::span<const int64_t> args) = nullptr;

  // --- reduce ---
  Type body = Type::int_;  // the body's type
  // The reduction of the terms so far and the next term (a bool body's term is 0 or 1);
  // the first term is the reduction of one. Empty, every reduction is 0.
  int64_t (*fold)(int64_t acc, int64_t term) = nullptr;

  // --- pair_reduce ---
  std::string_view shape;    // how a call is written, for messages
  bool cost_matrix = false;  // one cost that sees both names, or a value per side
  // After the cost, a second name of each side, a pair cost that sees all four names and
  // the number of rounds: `(i in S, j in T: cost, k, l: pair cost, rounds)`.
  bool pair_cost = false;
  // Only in the search's code, never in a value computed before the search ([derived]).
  bool node_only = false;
  // The reduction that may follow this one with `then`, solved on its reduced costs
  // (`assign(... then arborescence [steps K])`); none: no `then`.
  Builtin then = Builtin::none;
};

// The most subgradient steps `... then NEXT steps K` takes per node: its work per node
// grows with K, and a bound past the first few hundred steps moves little.
inline constexpr int64_t kMaxLagrangeSteps = 1000;
// The most steps of `... steps K multiplier X` ([derived]): taken once, on the host,
// before the search (dsl/lagrange_root.hpp).
inline constexpr int64_t kMaxRootLagrangeSteps = 100000;

// The builtin written `name` in `form`, or nullptr (min and max are a function and a
// reduction by the same name).
const BuiltinInfo* builtin_named(std::string_view name, BuiltinForm form);
const BuiltinInfo& builtin_info(Builtin id);
// Every builtin, for the reserved names and the checker's suggestions.
std::span<const BuiltinInfo> builtins();

}  // namespace permjit
