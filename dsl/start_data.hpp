// Start data: the instance arrays of a path problem that only build the start node
// (read by [path] start and by [state] init expressions, nothing else). The generator
// leaves them out of the source and root() takes them as arguments, so the source,
// and with it the compiled modules and their cache keys, is the same for every start:
// Korf's 100 instances are one compile, not a hundred.
#pragma once
#include <vector>

#include "dsl/diagnostics.hpp"
#include "dsl/spec.hpp"

namespace permjit {

// The values of spec.path.start_data, one row-major array per item, in its order.
using StartValues = std::vector<std::vector<int>>;

// Fills spec.path.start_data and hides those items' values from their symbols, so that
// nothing downstream (constant folding, value ranges) can compile a start value in.
// Called by load_spec once the whole spec is read; a no-op for other problems.
void mark_start_data(ProblemSpec& spec);

// The start data as the instance loaded it.
StartValues start_values(const ProblemSpec& spec);

// Reads record `record` (a line, from 1) of spec.instance_path into spec and returns its
// start data. Errors, located in the instance file: no such line, a start that is not a
// permutation, or compiled-in data that differs from the record the source was generated
// from (only start data may change between records). Throws UserErrors.
StartValues read_start_record(ProblemSpec& spec, int record);

// The instance's start permutation holds each value 0..size-1 once; errors at `where`.
void check_start_permutation(const ProblemSpec& spec, const DataItem& item, const Loc& where, Diagnostics& d);

}  // namespace permjit
