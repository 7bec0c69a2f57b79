// The parts of a problem source, one function each, in the order generate_problem
// calls them. What every generated problem provides (the interface the skeletons in
// templates/ use) is documented in docs/generated-code.md.
#pragma once
#include <map>
#include <set>

#include "dsl/spec.hpp"
#include "generator/code_writer.hpp"
#include "generator/generate.hpp"
#include "generator/int_width.hpp"

namespace permjit {

struct GenContext {
  const ProblemSpec& spec;
  CodeWriter out;
  std::map<const Symbol*, int> local_ids;
  std::set<const Symbol*> live;  // what node code needs (generator/state_liveness.hpp)
  IntWidth width;                // whether ints are 64-bit (generator/int_width.hpp)
  std::vector<RunTimeArray> data;  // the arrays emit_data declares for run time
  GenContext(const ProblemSpec& s, std::string name) : spec(s), out(std::move(name)) {}
};

void emit_header(GenContext& g);      // banner, namespace
void emit_constants(GenContext& g);   // size, goal, mask type, params, data scalars
void emit_data(GenContext& g);        // instance arrays
void emit_symmetry(GenContext& g);    // [symmetry]: the mirror map and the first level's representatives
void emit_node(GenContext& g);        // struct Node
void emit_stack_node(GenContext& g);  // StackNode: a node as a stack row keeps it (after emit_node)
void emit_candidates(GenContext& g);  // candidates(): the set of values a node may place
void emit_place(GenContext& g);       // place() (and place_back()): parent + value -> child
void emit_root(GenContext& g);        // root(): state init and the fixed prefix, placed with place()
void emit_leaf_weight(GenContext& g); // leaf_weight(): the solutions a leaf counts for (symmetry)
void emit_evaluation(GenContext& g);  // bound() and objective()
void emit_child_bound(GenContext& g); // ParentReductions, prepare_children(), child_bound() (after bound())
void emit_node_weight(GenContext& g); // kSolvesMatching: whether node code solves a matching (after the node code)
void emit_footer(GenContext& g);

// Path problems (generator/emit_path.cpp) instead of emit_node..emit_evaluation.
void emit_path_node(GenContext& g);    // struct Node: state, heuristic value, the permutation
void emit_path_search(GenContext& g);  // heuristic, is_goal, root, the moves

// The ivm skeleton's layout (generator/emit_ivm.cpp): a part of its own, after the
// problem in the skeleton's unit (generate_ivm_layout).
void emit_ivm_layout(GenContext& g);

}  // namespace permjit
