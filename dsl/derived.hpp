// [derived]: tables and scalars computed once on the host, before the search, from the
// parameters, the instance data and each other (e.g. the tails of a flowshop instance,
// a Johnson order made with argsort, a distance table of a puzzle). The generator then
// treats them exactly as instance data: compile-time constants.
#pragma once
#include "dsl/diagnostics.hpp"
#include "dsl/spec.hpp"

namespace permjit {

// Computes every derived item in an order where each follows the items it reads; a
// cycle, an unknown dimension, a value that cannot be computed or does not fit 32 bits
// is reported at its place. Needs every instance data item loaded. Returns false after
// reporting errors.
bool compute_derived(ProblemSpec& spec, Diagnostics& diags);

}  // namespace permjit
