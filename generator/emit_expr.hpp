// Lowers checked expressions and update blocks to C++ statements and expressions.
// Sub-expressions that need statements (reductions, lets) are hoisted into
// temporaries, so both arms of every conditional are computed and the conditional
// itself is a select: evaluation and bound code contains no data-dependent branch.
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "dsl/spec.hpp"
#include "generator/code_writer.hpp"
#include "generator/value_range.hpp"

namespace permjit {

// How names of the node are spelled where the code is emitted.
struct NodeNames {
  std::string builtins;  // object holding d, last, first, free: "s." or "p."
  std::string state;     // object whose state variables are read: "s.", "p." or "c."
  int depth_lo = 0, depth_hi = 0;  // what `d` can be there (for value_range)
};

class ExprEmitter {
 public:
  // `local_ids` numbers let/loop variables; share one map per generated source so
  // that the text is the same every time it is generated.
  // `wide_int`: ints are 64-bit `Int` (generator/int_width.hpp); every +, -, * and / is
  // then computed on an `Int`, whatever its operands' C++ types.
  ExprEmitter(const ProblemSpec& spec, CodeWriter& out, NodeNames names, std::map<const Symbol*, int>& local_ids,
              bool wide_int = false)
      : spec_(spec), out_(out), names_(std::move(names)), ids_(local_ids), wide_(wide_int) {
    env_.size = spec.size;
    env_.depth_lo = names_.depth_lo;
    env_.depth_hi = names_.depth_hi;
  }

  // Writes the statements `e` needs and returns a C++ expression of its value.
  std::string emit(const Expr& e);
  // Leaves out the update statements that change nothing in `live` (state not stored).
  void skip_dead(const std::set<const Symbol*>* live) { live_ = live; }
  // Writes an update block; assignments to state go to `target` ("c.").
  void emit_block(const Block& b, const std::string& target);
  // Writes a value block's statements and returns the C++ expression of its value.
  std::string emit_value(const Block& prelude, const Expr& value);
  // Declares the local `s` (e.g. a summed position) with the C++ value `value` in [lo, hi].
  void bind_local(const Symbol* s, const std::string& value, int64_t lo, int64_t hi);

  // Inside place(): `bit(v)` and `test(s, v)` of the value being placed read the C++
  // variable `name`, which holds bit(v) (a caller that picks v as a set's lowest value
  // has its bit already, and then needs v's index only where the spec reads it).
  void placed_value_bit(std::string name) { placed_bit_ = std::move(name); }

  // The C++ name of a local the caller declares itself (a function's parameter).
  std::string name_of_local(const Symbol* s) { return local_name(s); }

  // How reductions over the node's free values that read nothing of the node but the
  // value itself (data, parameters, loops of constant range) are emitted: in place, or
  // split between a parent and its children (generator/emit_child_bound.cpp): `prepare`
  // stores, for the parent `s`, each one's value and what a child that places one value
  // needs to correct it (for min and max the runner-up and the winner's value) in
  // `prep`; `from_parent` reads them back for the child `s`, whose placed value is
  // `v_placed`. Both modes must emit the same code (the same spec, the same names):
  // reductions are numbered in the order they are emitted.
  enum class FreeReductions { in_place, prepare, from_parent };
  void free_reductions(FreeReductions mode) { free_mode_ = mode; }
  // After `prepare`: the members of struct ParentReductions, one declaration each.
  const std::vector<std::string>& parent_members() const { return parent_members_; }
  int parent_reductions() const { return next_parent_slot_; }  // how many were split

  // The assign() `e` (generator/assign_start.hpp) is solved from the problem::AssignStart
  // that the C++ pointer `from` points to, and leaves its own in `to`, where the
  // function's template parameter kStarted is true; with it false, as any other.
  void start_assign(const Expr* e, std::string from, std::string to) {
    started_ = e;
    started_from_ = std::move(from);
    started_to_ = std::move(to);
  }

  // Block mode (refine_block: generator/emit_branch.cpp): the code is run by every thread
  // of a CUDA block on the same node, and dualassign() computes its bound with all of
  // them, its tables in the block's scratch, which the C++ `char*` named `scratch` points
  // to. Other code is computed by every thread for itself.
  void block_scratch(std::string scratch) { block_scratch_ = std::move(scratch); }
  // The bytes of scratch the block-mode code emitted so far uses (0: it has no dualassign).
  int64_t block_scratch_bytes() const { return block_scratch_bytes_; }

  static std::string cxx_type(Type t, bool wide_int = false);
  // `c ? a : b` as pj::select<T>, a select the device compiler keeps.
  static std::string select(Type t, const std::string& c, const std::string& a, const std::string& b,
                            bool wide_int = false);
  static std::string data_name(const std::string& n) { return "data_" + n; }
  static std::string param_name(const std::string& n) { return "param_" + n; }
  static std::string state_name(const std::string& n) { return "st_" + n; }

 private:
  const ProblemSpec& spec_;
  CodeWriter& out_;
  NodeNames names_;
  std::map<const Symbol*, int>& ids_;
  RangeEnv env_;  // value ranges of the locals in scope
  int next_tmp_ = 0;
  const std::set<const Symbol*>* live_ = nullptr;  // null: every statement is emitted
  bool wide_ = false;
  std::string placed_bit_;  // placed_value_bit(); empty: none
  const Expr* started_ = nullptr;  // start_assign()
  std::string started_from_, started_to_;
  bool is_placed_value(const Expr& e) const;

  // Temporaries end in `_t<k>`, user locals in `_<k>`: the two can never collide.
  std::string tmp(const std::string& hint) { return hint + "_t" + std::to_string(next_tmp_++); }
  std::string local_name(const Symbol* s);
  std::string name(const Expr& e);
  std::string call(const Expr& e);
  // `a & ~b` of sets without a mask on the complement; nullopt for any other form.
  std::optional<std::string> and_not(const Expr& e);
  // The defined form (pj::div, pj::shl, ...) of an int division, remainder or shift, or
  // of a set shift, whose divisor or count is not proven safe; nullopt when it is
  // (emit_arith.cpp).
  std::optional<std::string> defined_arith(const Expr& e, const std::string& l, const std::string& r);
  // Whether the int `e` provably lies in 0..width-1 of the set word.
  bool in_word(const Expr& e);
  std::string reduce(const Expr& e);
  // The reductions split between parent and child (emit_child_bound.cpp).
  bool from_parent_eligible(const Expr& e) const;
  bool reads_only_fixed(const Expr& e, const Symbol* var) const;
  std::string prepare_reduction(const Expr& e);
  std::string reduction_from_parent(const Expr& e);
  // `[k - lo]...` over the enclosing loops of constant range, and their extents.
  std::string parent_slot_index(std::string* dims);
  FreeReductions free_mode_ = FreeReductions::in_place;
  int next_parent_slot_ = 0;
  std::vector<std::string> parent_members_;
  // The loops around the code being emitted, outermost first, with what their variable
  // can be: the index of a reduction's slot in ParentReductions.
  std::vector<std::pair<const Symbol*, ValueRange>> loops_;
  // assign() and minprod(): gathers the sides and calls templates/pair_reductions.h
  // (emit_pair_reduce.cpp).
  std::string pair_reduce(const Expr& e);
  // dualassign(): its cost tables over the listed sides and templates/pair_dual.h's
  // solver (emit_dual_assign.cpp).
  std::string dual_assign(const Expr& e);
  // The same in block mode: the tables (already declared in the scratch) filled by the
  // block's threads and templates/pair_dual_block.h's solver.
  struct DualTables {
    std::string la, na, lb, nb, cost, pair, m, rounds, ks;
  };
  std::string dual_assign_block(const Expr& e, const DualTables& t);
  std::string block_scratch_;         // block mode's scratch pointer (empty: per thread)
  int64_t block_scratch_bytes_ = 0;   // the scratch the block-mode tables take so far
  // Lists the values of one side of a pair reduction into a local array; returns its
  // capacity, and the names of the array and of its count.
  int64_t gather_side(const Expr& e, size_t at, bool range, const Symbol* var, std::string& list, std::string& count,
                      const Expr* value = nullptr, std::string* values = nullptr);
  // How many values one side of a pair reduction can hold: the shape's size for a set,
  // the proven width of a range (at least 1).
  int64_t side_capacity(const Expr& e, size_t at, bool range);
  // The minprod() calls of an assign's cost sorted per row and per column
  // (generator/minprod_hoisting.hpp): each one's C++ value while the cost is emitted.
  std::map<const Expr*, std::string> hoisted_;
  // The cost matrices of assign() and arborescence() built so far, with their listed
  // sides: a second reduction over the same sides and cost in a block where the first
  // is visible (max(assign(...), arborescence(...)) of one matrix) reuses them.
  struct CostMatrix {
    uint64_t block;   // where it was declared (CodeWriter::block)
    std::string key;  // pair_reduce_key of the reduction
    int64_t ca, cb;   // the sides' capacities
    std::string la, na, lb, nb, cost;
  };
  std::vector<CostMatrix> matrices_;
  // The solver's call on a cost matrix built for `e` or for an equal reduction.
  std::string solve_pair(const Expr& e, const CostMatrix& m);
  std::string chain_start(const Expr& e, const CostMatrix& m);  // `from E`: ", start" or ""
  // `a[i]...` with every index that is not provably inside its dimension clamped
  // (PJ_INDEX, checked in a checked build); `in_bounds` receives the condition that all
  // of them are (empty when provable). An index whose every value lies outside its
  // dimension is a user error at its place.
  std::string indexed(const Expr& e, std::string* in_bounds);
  // The conditions under which the code being emitted counts: the arm's condition of a
  // select, the left side of && (its negation for ||), a set reduction's membership, a
  // loop's range guard, an `if` part's guard. PJ_INDEX reports a clamped read only
  // where all of them hold, so that the untaken arm that every select computes is not
  // taken for a mistake.
  std::vector<std::string> taken_;
  std::string taken() const;
  struct Taken {  // pushes a condition for the scope of the object
    ExprEmitter& x;
    bool pushed;
    Taken(ExprEmitter& e, const std::string& cond) : x(e), pushed(!cond.empty()) {
      if (pushed) x.taken_.push_back(cond);
    }
    ~Taken() {
      if (pushed) x.taken_.pop_back();
    }
  };
  // The variables of loops with no trip (a constant range such as 1..1): their body
  // never runs, so an index of theirs that is always out of range is no mistake.
  std::set<const Symbol*> empty_loops_;
  void stmt(const Stmt& s, const std::string& target, const std::string& guard);
  // A range loop: static bounds loop exactly; bounds known only at the node loop over
  // the interval value_range proves for them, with a select guard.
  void open_range(const Expr& lo, const Expr& hi, const Symbol* var, std::string& guard);
};

}  // namespace permjit
