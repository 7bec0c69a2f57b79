// Under test: dsl/builtins.cpp, the builtins table: every id has one entry, each form's
// entries carry what their users read, and the values static_eval takes from it.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <utility>

#include "dsl/builtins.hpp"

using namespace permjit;

TEST_CASE("every builtin id has one entry, and names are unique within a form", "[builtins]") {
  std::set<Builtin> ids;
  std::set<std::pair<BuiltinForm, std::string>> names;
  for (const BuiltinInfo& b : builtins()) {
    INFO(b.name);
    CHECK(ids.insert(b.id).second);
    CHECK(names.insert({b.form, std::string(b.name)}).second);
    CHECK(&builtin_info(b.id) == &b);
    CHECK(builtin_named(b.name, b.form) == &b);
    switch (b.form) {
      case BuiltinForm::name: CHECK(*b.meaning != '\0'); break;
      case BuiltinForm::call:
        CHECK(b.eval != nullptr);
        CHECK(b.min_args >= 1);
        CHECK(b.min_args <= b.max_args);
        break;
      case BuiltinForm::reduce: CHECK(b.fold != nullptr); break;
      case BuiltinForm::pair_reduce:
        CHECK_FALSE(b.shape.empty());
        // What follows with `then` is a reduction over a cost matrix too.
        if (b.then != Builtin::none) {
          CHECK(b.cost_matrix);
          CHECK(builtin_info(b.then).form == BuiltinForm::pair_reduce);
          CHECK(builtin_info(b.then).cost_matrix);
        }
        break;
      case BuiltinForm::argsort: break;
    }
  }
  // From the first id after `none` to the last, none is missing.
  CHECK(ids.size() == static_cast<size_t>(Builtin::argsort));
  CHECK(builtin_named("min", BuiltinForm::call)->id == Builtin::min);
  CHECK(builtin_named("min", BuiltinForm::reduce)->id == Builtin::min_of);
  CHECK(builtin_named("assign", BuiltinForm::call) == nullptr);
  // The two-set reductions with a syntax beyond the cost: a pair cost (dualassign),
  // a reduction after `then` (assign ... then arborescence).
  CHECK(builtin_named("dualassign", BuiltinForm::pair_reduce)->pair_cost);
  CHECK(builtin_named("dualassign", BuiltinForm::pair_reduce)->node_only);
  CHECK(builtin_info(Builtin::assign).then == Builtin::arborescence);
  CHECK(builtin_info(Builtin::arborescence).then == Builtin::none);
}

TEST_CASE("the functions' values before the search", "[builtins]") {
  auto eval = [](Builtin id, std::initializer_list<int64_t> args) {
    return builtin_info(id).eval(std::span<const int64_t>(args.begin(), args.size()));
  };
  CHECK(eval(Builtin::min, {4, -2, 7}) == -2);
  CHECK(eval(Builtin::max, {4, -2, 7}) == 7);
  CHECK(eval(Builtin::abs, {-5}) == 5);
  CHECK(eval(Builtin::abs, {INT64_MIN}) == INT64_MIN);  // wraps, as the generated code's
  CHECK(eval(Builtin::bit, {3}) == 8);
  CHECK(eval(Builtin::bit, {64}) == 0);  // outside the word: the empty set
  CHECK(eval(Builtin::test, {8, 3}) == 1);
  CHECK(eval(Builtin::test, {8, -1}) == 0);
  CHECK(eval(Builtin::popcount, {0b1011}) == 3);
  CHECK(eval(Builtin::lowest, {0b1000}) == 3);
  CHECK(eval(Builtin::lowest, {0}) == -1);
  CHECK(builtin_info(Builtin::sum).fold(INT64_MAX, 1) == INT64_MIN);
  CHECK(builtin_info(Builtin::count).fold(2, 1) == 3);
  CHECK(builtin_info(Builtin::min_of).fold(2, -1) == -1);
  CHECK(builtin_info(Builtin::max_of).fold(2, -1) == 2);
}
