// Whether a placement problem's int values fit 32 bits. An interval analysis over the
// instance's data and the spec's ranges bounds every int the node code computes: the
// state over every depth (the updates applied `size` times from the root), locals,
// reductions, bound and objective. If some value may pass 32 bits, the generated code
// computes ints in 64 bits (`using Int = long long`); if it may pass 64 bits, that is
// an error at its place. Either way an overflow never gives a silently wrong answer
// (docs/reliability.md). Test: tests/e2e/int_width_test.cpp.
#pragma once
#include "dsl/source.hpp"
#include "dsl/spec.hpp"

namespace permjit {

struct IntWidth {
  bool wide = false;  // node code computes ints in 64 bits
  Loc why;            // wide: the first place whose value may pass 32 bits
  long long reach = 0;  // wide: how far it may go (for the message)
};

// Throws UserErrors at the first place whose value may pass 64 bits. Path problems
// (small positions and move costs) are not analysed: their ints stay 32 bits.
IntWidth int_width(const ProblemSpec& spec);

}  // namespace permjit
