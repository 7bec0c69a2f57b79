// The two-set reductions of the spec language (docs/spec-language.md, "Two-set
// reductions"): their names and shapes in one table, which the parser, the reserved
// names, the checker and the printer read instead of comparing names.
#pragma once
#include <cstdint>
#include <string_view>

#include "dsl/ast.hpp"

namespace permjit {

struct PairOpInfo {
  PairOp op;
  std::string_view name;
  std::string_view shape;  // how a call is written, for messages
  // One cost that sees both names (a matrix over the two sides), or a value per side.
  bool cost_matrix;
};

// The most subgradient steps `assign(... then arborescence steps K)` takes per node: its
// work per node grows with K, and a bound past the first few hundred steps moves little.
constexpr int64_t kMaxLagrangeSteps = 1000;

// The reduction called `name`, or nullptr.
const PairOpInfo* pair_op_named(std::string_view name);
const PairOpInfo& pair_op_info(PairOp op);
// Every reduction, for the reserved names.
const PairOpInfo* pair_ops_begin();
const PairOpInfo* pair_ops_end();

}  // namespace permjit
