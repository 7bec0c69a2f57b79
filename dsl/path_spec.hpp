// The parts of a spec that only a move-based (`goal = "path"`) problem has: the start
// permutation, the moves, the goal test and the heuristic. Plain data, no CUDA.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dsl/ast.hpp"
#include "dsl/pattern_db.hpp"

namespace permjit {

struct Symbol;

// A named operator: applicable where `when` holds; exchanges the values at two positions
// of the permutation and updates state variables (every right-hand side reads the parent).
struct Move {
  std::string name;
  Loc loc;
  ExprPtr when;            // bool, on the parent; absent: always applicable
  ExprPtr swap_a, swap_b;  // int positions, on the parent
  std::vector<std::pair<std::string, ExprPtr>> set;
  int64_t cost = 1;        // known before the search, >= 1
  int inverse = -1;        // the move that undoes this one (never applied right after it), or -1
};

struct PathSpec {
  std::string start_item;  // the data item holding the start permutation
  Loc start_loc;           // where [path] start names it
  // Start data (dsl/start_data.hpp): the instance's array items that only build the start
  // node, in declaration order. They are run-time inputs of root(), not compiled in.
  std::vector<std::string> start_data;
  ExprPtr goal;            // bool, on a node
  std::vector<Move> moves;
  // The heuristic of a node: `h` as written, or the sum over positions of
  // `position_term`, which the generator then updates on the two swapped positions only.
  ExprPtr heuristic;
  const Expr* position_term = nullptr;    // the summed body, inside `heuristic`
  const Symbol* position_var = nullptr;   // its position variable `pos`
  PatternDatabases databases;             // [pattern_databases]: on when declared and enabled
};

}  // namespace permjit
