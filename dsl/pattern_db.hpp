// Pattern databases of a path problem ([pattern_databases], docs/spec-language.md §18b):
// sets of values whose positions alone (with the tracked values') make an abstract
// state; a table per pattern holds each abstract state's exact cost to the goal's
// abstraction, counting only moves of the pattern's values. The patterns of a group are
// disjoint and their tables add up; the heuristic is the max over the groups and the
// spec's own [heuristic]. Plain data: the tables are built at run time
// (runtime/pattern_db.hpp) by the compiled module (templates/cpu_pdb.hpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "dsl/ast.hpp"

namespace permjit {

struct Pattern {
  std::vector<int> values;  // in the order the spec lists them
  Loc loc;                  // the pattern's array in the spec
  int group = 0;            // its additive group
  uint64_t entries = 0;     // abstract states: size! / (size - values - tracked)!
};

struct PatternDatabases {
  bool on = false;         // declared and `when` holds
  Loc loc;                 // the [pattern_databases] table
  std::string goal_item;   // the data item holding the goal permutation
  Loc goal_loc;
  std::vector<int> goal;   // its values: the value at each position of the goal
  std::vector<int> track;  // values every pattern keeps (their positions decide the moves)
  Loc track_loc;
  std::vector<Pattern> patterns;  // group by group
  int groups = 0;
  // reflect = { positions, values }: a symmetry of the problem. The reflected node has
  // value reflect_values[v] at position reflect_positions[p] where the node has v at p;
  // it is as far from the goal, so the tables looked up on it bound the node too, and
  // the heuristic takes the larger of both lookups (Korf and Felner 2002).
  std::vector<int> reflect_positions, reflect_values;  // empty: no reflection
  Loc reflect_loc;
};

// The number of ways to place k distinct values on n positions, n! / (n - k)!; UINT64_MAX
// once it passes 2^63.
uint64_t placements(int n, int k);

// What `check` prints about the databases: groups, entries, bytes, the values each group
// covers and those it leaves out. Empty when there are none.
std::string describe_pattern_databases(const PatternDatabases& p, int size);

}  // namespace permjit
