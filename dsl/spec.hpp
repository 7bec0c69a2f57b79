// The typed problem spec: what `dsl/` produces and `generator/` consumes. Plain data,
// no CUDA. Sizes and instance data are known here, so the generator can make them
// compile-time constants.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <set>
#include <string>
#include <vector>

#include "dsl/ast.hpp"
#include "dsl/path_spec.hpp"

namespace permjit {

// find: any complete permutation the rules allow, searched as a count that stops at
// its first solution (the generated code is a count problem's).
enum class Goal { count, find, minimize, maximize, path };
const char* goal_name(Goal g);
// Goals whose every complete permutation is a solution: no bound, no objective.
inline bool counts_leaves(Goal g) { return g == Goal::count || g == Goal::find; }
// Goals with an objective and a bound.
inline bool optimises(Goal g) { return g == Goal::minimize || g == Goal::maximize; }

// The largest permutation size: a set of values is one machine word of 32, 64 or 128
// bits (generator/emit_layout.cpp); the ABIs' PJ_MAX_SIZE is the same number.
inline constexpr int kMaxSize = 128;
// Sizes above this use 128-bit sets, which some features do not take (each says so).
inline constexpr int kMaxNarrowSize = 64;
// The bits of the word that holds a set of `size` values: the narrowest that fits.
constexpr int set_word_bits(int size) { return size <= 32 ? 32 : size <= kMaxNarrowSize ? 64 : 128; }

struct Symbol {
  enum class Kind { param, data, state, builtin, local };
  Kind kind;
  std::string name;
  Type type = Type::int_;      // element type for arrays
  std::vector<int64_t> dims;   // empty for scalars; sized by the declaration, values once known
  std::optional<int64_t> value;          // params and data scalars, once known
  const std::vector<int64_t>* values = nullptr;  // data arrays, row-major, once known
  Loc loc;
  bool assignable = false;  // a `var` local: assignments allowed in its scope
  // Data arrays read at run time (dsl/run_time_data.hpp): `values` is null and code may
  // assume only that every element lies in this range, the array's value class.
  std::optional<std::pair<int64_t, int64_t>> run_time_range;
  Builtin builtin = Builtin::none;  // Kind::builtin: which one
  bool is_array() const { return !dims.empty(); }
};

struct Param {
  std::string name;
  int64_t value = 0;
  int64_t def = 0;
  int64_t lo = INT64_MIN, hi = INT64_MAX;
  Loc loc;
};

struct DataItem {
  std::string name;
  std::vector<ExprPtr> dim_exprs;  // empty for a scalar
  std::vector<int64_t> dims;       // evaluated
  std::vector<int64_t> values;     // row-major, filled from the instance (or computed: derived)
  bool loaded = false;
  Loc loc;
  // Derived items ([derived]) only: the value of element [index...], computed on the host.
  ExprPtr value;
  std::vector<std::string> index_names;
  std::vector<const Symbol*> index_syms;  // filled by the checker
};

struct StateVar {
  std::string name;
  Type type = Type::int_;  // int or bits
  std::vector<ExprPtr> dim_exprs;
  std::vector<int64_t> dims;
  ExprPtr init;  // evaluated at the root; broadcast to every element of an array
  Loc loc;
};

// How the instance file fills the data items.
struct InstanceFormat {
  enum class Kind { none, tsplib, layout };
  Kind kind = Kind::none;
  // tsplib: which data items receive DIMENSION and the edge weights.
  std::string dimension_item, weights_item;
  // layout: the data items read in order, whitespace-separated numbers.
  std::vector<std::pair<std::string, Loc>> read_order;
  Loc loc;
};

// How a child's state follows from its parent's and the value placed: either
// simultaneous assignments (inline table) or a sequential block (string).
struct Placement {
  bool is_block = false;
  std::vector<std::pair<std::string, ExprPtr>> simultaneous;
  Block block;
  Loc loc;
  bool given = false;  // the key is in the spec
};

struct Branch {
  ExprPtr candidates;  // bits, on the parent; intersected with `free`
  ExprPtr filter;      // bool of `v`, on the parent
  Placement place;       // v at the front: the next position from the left
  Placement place_back;  // v at the back (ends = 2): the next position from the right
  // 1: values fill the positions from the left; 2: from either end, the skeleton
  // choosing the end at each node (docs/spec-language.md, "Two ends").
  int ends = 1;
  Loc ends_loc;
  std::string ends_param;  // when branch.ends is one parameter's name: that parameter
  ExprPtr bound;      // int, on the child (minimize / maximize)
  ExprPtr objective;  // int, on a leaf (minimize / maximize)
  // Staged bounds (docs/spec-language.md, "Staged bounds"): with stages = 2, `refine`
  // is computed only on a child whose cheap `bound` does not prune it, and the child's
  // bound is the tighter of the two. `refine` is checked with either value of stages
  // and generated only with 2.
  int stages = 1;
  Loc stages_loc;             // line 0: the key is not in the spec
  ExprPtr refine;             // int, on the child, with `bound` in scope
  const Symbol* refine_bound = nullptr;  // the name `bound` inside refine: the cheap bound's value
  // Statements run before each value (a value written as a block ending in `return`).
  Block candidates_prelude, filter_prelude, bound_prelude, objective_prelude, refine_prelude;
};

struct ProblemSpec {
  SourceRef file;
  std::string name;
  Goal goal = Goal::count;
  Loc goal_loc;  // where [problem] goal is written
  ExprPtr size_expr;
  int size = 0;  // evaluated; 0 while unknown
  int set_bits = 32;  // the word of a set: set_word_bits(size), or 128 (LoadOptions::wide_sets)
  std::vector<int64_t> fixed_prefix;
  Loc fixed_prefix_loc;
  std::vector<Param> params;
  std::vector<DataItem> data;
  std::vector<DataItem> derived;  // [derived]: computed from params, data and each other, in this order
  std::vector<StateVar> state;
  InstanceFormat instance;
  std::string instance_path;  // empty when none was given
  int instance_record = 0;    // > 0: only this line of the instance file is the instance
  Branch branch;
  PathSpec path;  // goal = "path" only (dsl/load_path.cpp)

  // [symmetry] (dsl/load_symmetry.cpp): a map of the values under which the problem is
  // invariant; the search visits one value of each mirrored pair at its first level.
  struct ValueSymmetry {
    ExprPtr value;         // an int expression of v
    Loc loc;               // where it is written
    std::vector<int> map;  // map[v], once the size is known
  };
  std::optional<ValueSymmetry> symmetry;
  // [symmetry] generators (dsl/load_symmetry.cpp, dsl/symmetry_group.hpp): symmetries
  // of the permutation's matrix; the search counts one border of each orbit, weighted.
  struct SymmetryGroup {
    struct Generator {
      int code;  // kReflectValues, kReversePositions or kInvert
      Loc loc;   // its string in the array
    };
    std::vector<Generator> generators;
    std::vector<int> elements;  // the group they generate, identity first
    Loc loc;                    // where `generators` is written
  };
  std::optional<SymmetryGroup> symmetry_group;
  // [symmetry] position_automorphisms (dsl/load_symmetry.cpp, dsl/position_automorphisms.hpp):
  // tables whose automorphisms permute the positions (in the search's order) without
  // changing the problem. The search keeps, of the first searched position's orbit, the
  // permutations whose value there is the least of the orbit's values.
  struct PositionAutomorphisms {
    std::vector<std::string> tables;         // the named [data] or [derived] tables
    Loc loc;                                 // where the array is written
    std::vector<int> orbit;                  // depth 0's orbit (0 first); empty until the tables are loaded
    std::vector<std::vector<int>> to_first;  // per orbit member x, an automorphism t with t[x] = 0
    int generators = 0;                      // automorphisms found
    bool complete = true;                    // false: the search for them ran out of steps
  };
  std::optional<PositionAutomorphisms> position_symmetry;
  bool has_symmetry() const {
    return symmetry.has_value() || symmetry_group.has_value() || position_symmetry.has_value();
  }
  // The first searched position's orbit has more than one member: the search is narrowed.
  bool narrows_positions() const { return position_symmetry && position_symmetry->orbit.size() > 1; }

  // [branch] positions (dsl/load_positions.cpp): the search fills the problem's positions
  // in another order than 0, 1, ...: depth d fills position order[d]. The spec is written
  // in the search's order (its data relabelled by [derived] tables); every permutation
  // permjit reports is put back in the problem's order (runtime/core/problem_order.hpp).
  struct PositionOrder {
    std::string table;       // the [derived] int[size] table that holds the order
    Loc loc;                 // where branch.positions is written
    std::vector<int> order;  // order[d]; empty until the table is computed (check alone)
  };
  std::optional<PositionOrder> positions;

  // [search] gpu_skeleton (dsl/load_search.cpp): the GPU skeleton taken when the command
  // line names none, where `when` holds for the parameters. A name only: the runtime's
  // registry judges it (runtime/skeletons.hpp, check_preferred_skeleton).
  struct PreferredSkeleton {
    std::string name;
    bool applies = true;  // `when`, evaluated; true without one
    Loc loc;              // where the name is written
  };
  std::optional<PreferredSkeleton> gpu_skeleton;

  // Builtins that some expression reads (the generator leaves the others out of Node).
  std::set<Builtin> used_builtins;
  // Every name the expressions can see, by name: params, data, state, builtins.
  std::map<std::string, Symbol> symbols;
  // --data auto: the instance's values are loaded compiled in, and where they live is
  // still to be chosen (generator/choose_data.hpp; generate_problem refuses such a spec).
  bool data_auto = false;
  // Locals (let and loop variables) live as long as the spec; the checker owns them here.
  std::vector<std::unique_ptr<Symbol>> locals;

  const StateVar* find_state(const std::string& n) const;
  const DataItem* find_data(const std::string& n) const;  // instance data and derived items
};

}  // namespace permjit
