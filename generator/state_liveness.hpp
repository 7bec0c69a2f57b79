// Which state variables a generated problem stores. A state variable that nothing reads
// for the given parameters (no bound, objective, candidates or filter, and no update of
// a state variable they read) is left out of Node, so a parameter that switches a
// feature off also removes its state: a spec can carry state for one variant (say,
// branch.ends = 2) without making the nodes of the others larger.
#pragma once
#include <set>
#include <vector>

#include "dsl/spec.hpp"

namespace permjit {

// Every symbol an expression or a block reads, with the conditions known before the
// search folded as the emitter folds them (a `?:` or an `if` reads only the part it keeps).
void static_reads(const Expr& e, std::set<const Symbol*>& out);
void static_reads(const Block& b, std::set<const Symbol*>& out);

// The values node code computes, each with its prelude: candidates, filter, bound,
// objective, and refine with branch.stages = 2. The expression is null where the spec
// has none.
std::vector<std::pair<const Block*, const Expr*>> values_in_use(const Branch& b);

// The placements the skeletons call: `place`, and `place_back` with two ends.
std::vector<const Placement*> placements_in_use(const Branch& b);

// The symbols (state variables and update-block locals) that node code needs, with the
// conditions known before the search folded as the emitter folds them. Path problems
// keep all their state.
std::set<const Symbol*> live_symbols(const ProblemSpec& s);

// Whether a state variable is stored in Node.
bool is_stored(const std::set<const Symbol*>& live, const ProblemSpec& s, const StateVar& v);

// Whether an update-block statement changes a live symbol (and so must be emitted).
bool has_live_effect(const Stmt& s, const std::set<const Symbol*>& live);

}  // namespace permjit
