// An instance given as named values instead of a file: a program (the Python package,
// a test) hands each of the spec's data items its value, whatever [instance] says the
// file format is. The values are checked as a file's are: every item given once, its
// shape the one the spec declares, each number a 32-bit int.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "dsl/diagnostics.hpp"
#include "dsl/spec.hpp"

namespace permjit {

struct InstanceValue {
  std::string name;             // a data item of the spec
  std::vector<int64_t> dims;    // empty: a scalar
  std::vector<int64_t> values;  // row-major, as many as the dims' product
};

// Fills spec.data from `given`. An error about a given value points into a source named
// "<instance values>" that lists them (`p=int[5][20] m=int`); one about a missing item
// points at its declaration in the spec. Returns false after reporting errors.
bool load_instance_values(ProblemSpec& spec, const std::vector<InstanceValue>& given, Diagnostics& diags);

}  // namespace permjit
