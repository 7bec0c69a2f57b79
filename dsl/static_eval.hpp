// Evaluates checked expressions that depend only on parameters and instance data
// (sizes, dimensions, ranges, initial values of the root). Also the reference semantics
// of the operators: the generated code must agree with it.
#pragma once
#include <cstdint>
#include <map>
#include <optional>

#include "dsl/diagnostics.hpp"
#include "dsl/spec.hpp"

namespace permjit {

// The value (bool as 0/1, bits as the 64-bit word), or nullopt when `e` reads something
// that is only known during the search, or an unloaded datum. Division by zero and an
// index out of range are reported to `diags` (if given) and give nullopt.
std::optional<int64_t> eval_static(const Expr& e, Diagnostics* diags = nullptr);
// The same with locals bound (the indices of a [derived] element).
std::optional<int64_t> eval_static(const Expr& e, const std::map<const Symbol*, int64_t>& locals, Diagnostics* diags);

}  // namespace permjit
