// Instance data at run time. Once a spec is loaded and its derived tables computed,
// the values of its data arrays are hidden from what generates code: each array is seen
// through its value class, the narrowest range [0, 2^k) or [-2^k, 2^k) that holds every
// value. The generated source then depends on the spec, the parameters, the sizes and
// these classes, not on the values, and one compiled module serves every instance of a
// shape (the values are uploaded when the module loads: ProblemSource::data). Scalars
// stay compile-time constants: they size arrays and loops.
#pragma once
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "dsl/spec.hpp"

namespace permjit {

// The value class of `values`: [0, 2^k - 1] when none is negative, else [-2^k, 2^k - 1],
// with the smallest such k.
std::pair<int64_t, int64_t> value_class(const std::vector<int64_t>& values);

// The data arrays whose values come from the instance: its own arrays and the derived
// arrays computed from them (derived arrays of parameters alone are the same for every
// instance, and stay compiled in). Start data (path problems) are not among them: they
// are a run-time input of root() already.
std::set<std::string> instance_arrays(const ProblemSpec& spec);

// Sets every instance array's run_time_range and hides its values (Symbol::values = null);
// the DataItems keep them for the upload.
void keep_data_at_run_time(ProblemSpec& spec);
// The inverse: every instance array's values compiled in again (from its DataItem).
void compile_data_in(ProblemSpec& spec);

}  // namespace permjit
