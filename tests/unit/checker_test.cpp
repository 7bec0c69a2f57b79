// Under test: dsl/checker.cpp (names, types, update blocks) against a loaded qap spec.
#include <catch2/catch.hpp>

#include "dsl/builtins.hpp"
#include "dsl/checker.hpp"
#include "dsl/parser.hpp"
#include "tests/test_paths.hpp"
#include "unit_helpers.hpp"

using namespace permjit;
using namespace permjit::unit;

namespace {

// qap.toml with n = 3: params lb; data n, a, b (int[3][3]); state loc (int[3]), cost.
struct Fixture {
  TempFile inst{"chk.dat", "3\n1 2 3 4 5 6 7 8 9\n9 8 7 6 5 4 3 2 1\n"};
  ProblemSpec spec;
  std::vector<std::unique_ptr<std::pair<std::string, std::vector<Loc>>>> keep;  // sources of parsed text
  Fixture() {
    LoadOptions o;
    o.spec_path = test::problem("qap.toml");
    o.instance_path = inst.path();
    spec = load_spec(o);
  }
  ExprSource source(const std::string& text) {
    auto p = std::make_unique<std::pair<std::string, std::vector<Loc>>>(text, std::vector<Loc>{});
    SourceRef f = make_source("<check>", text);
    int col = 1, line = 1;
    for (char c : p->first) {
      p->second.push_back(Loc{f, line, col});
      if (c == '\n') line++, col = 1;
      else ++col;
    }
    p->second.push_back(Loc{f, line, col});
    keep.push_back(std::move(p));
    return ExprSource{keep.back()->first, &keep.back()->second};
  }
  // The type of a well-formed expression, or Type::error with the diagnostics in `d`.
  Type check(const std::string& text, Diagnostics& d, CheckContext ctx = {"test", true, true, false}) {
    ExprPtr e = parse_expression(source(text), d);
    REQUIRE(e);
    Type t = check_expression(*e, spec, ctx, d);
    exprs.push_back(std::move(e));
    return t;
  }
  std::vector<ExprPtr> exprs;
};

Type type_of(Fixture& f, const std::string& text) {
  Diagnostics d;
  Type t = f.check(text, d);
  INFO(text << "\n" << d.render());
  CHECK_FALSE(d.has_errors());
  return t;
}

// The one error of checking `text`: its column and message.
void error_of(Fixture& f, const std::string& text, int col, const std::string& message,
              CheckContext ctx = {"test", true, true, false}) {
  Diagnostics d;
  CHECK(f.check(text, d, ctx) == Type::error);
  INFO(text << "\n" << d.render());
  REQUIRE(d.error_count() == 1);
  CHECK(d.all()[0].loc.col == col);
  CHECK_THAT(d.all()[0].message, Catch::Contains(message));
}

}  // namespace

TEST_CASE("checked qap: names resolve to their symbols", "[checker]") {
  Fixture f;
  CHECK(f.spec.size == 3);
  const Block& place = f.spec.branch.place.block;
  REQUIRE(place.size() == 2);
  CHECK(place[0]->target->sym->kind == Symbol::Kind::state);
  CHECK(place[1]->target->kind == Expr::Kind::index);
  CHECK(place[1]->target->args[0]->sym->name == "loc");
  CHECK(f.spec.branch.bound->type == Type::int_);
  CHECK(f.spec.branch.objective->sym->name == "cost");
}

TEST_CASE("expression types", "[checker]") {
  Fixture f;
  CHECK(type_of(f, "cost + a[d][v] * lb") == Type::int_);
  CHECK(type_of(f, "free & ~bit(v) | all") == Type::bits);
  CHECK(type_of(f, "test(free, 2) && d < n || !(v == last)") == Type::bool_);
  CHECK(type_of(f, "popcount(free) + lowest(free) + abs(-first)") == Type::int_);
  CHECK(type_of(f, "b[loc[0]][v]") == Type::int_);
  CHECK(type_of(f, "d > 0 ? free : all") == Type::bits);
  CHECK(type_of(f, "let x = free in popcount(x)") == Type::int_);
  CHECK(type_of(f, "count(i in free: i > 1) + sum(i in 0..n: i) + max(j in d..n: a[j][j])") == Type::int_);
  CHECK(type_of(f, "let n = free in n") == Type::bits);  // a local shadows the datum
  CHECK(type_of(f, "(free << 1) >> 2") == Type::bits);
  CHECK(type_of(f, "(d & 1) == 0") == Type::bool_);
}

TEST_CASE("expression type errors name the operator or operand", "[checker][errors]") {
  Fixture f;
  error_of(f, "cost + free", 6, "operator '+' cannot apply to int and bits");
  error_of(f, "-free", 1, "operator '-' cannot apply to bits");
  error_of(f, "d ? 1 : 2", 1, "the condition of '?:' must be bool, found int");
  error_of(f, "d > 0 ? 1 : free", 7, "the arms of '?:' have different types: int and bits");
  error_of(f, "count(i in free: i)", 18, "the body of count() must be bool, found int");
  error_of(f, "sum(i in 3: i)", 10, "must be bits, found int");
  error_of(f, "abs(1, 2)", 1, "abs() takes 1 argument(s), given 2");
  error_of(f, "min(1)", 1, "min() takes at least 2 argument(s), given 1");
  error_of(f, "test(1, 2)", 6, "the first argument of test() must be bits, found int");
  error_of(f, "true == 1", 6, "operator '==' cannot apply to bool and int");
}

TEST_CASE("array use errors", "[checker][errors]") {
  Fixture f;
  error_of(f, "1 + a", 5, "'a' is an array of 2 dimension(s); index it");
  error_of(f, "a[0]", 1, "'a' has 2 dimension(s), indexed with 1");
  error_of(f, "cost[0]", 1, "'cost' is a scalar and cannot be indexed");
  error_of(f, "loc[free]", 5, "an index must be int, found bits");
}

TEST_CASE("name errors, with suggestions", "[checker][errors]") {
  Fixture f;
  Diagnostics d;
  CHECK(f.check("cots + 1", d) == Type::error);
  REQUIRE(d.error_count() == 1);
  CHECK(d.all()[0].loc.col == 1);
  CHECK(d.all()[0].message == "unknown name 'cots' in test");
  CHECK(d.all()[0].hint == "did you mean 'cost'?");
  error_of(f, "popcnt(free)", 1, "unknown function 'popcnt'");
  error_of(f, "sum(i in 0..n: i) + i", 21, "unknown name 'i'");  // the loop variable is gone
}

TEST_CASE("what an expression may see depends on where it is", "[checker][errors]") {
  Fixture f;
  CheckContext no_value{"bound", true, false, false};
  error_of(f, "cost + v", 8, "'v' (the value being placed) is not defined in bound", no_value);
  CheckContext static_ctx{"problem.size", false, false, false};
  error_of(f, "n + d", 5, "'d' (depth: the number of values placed) is not defined in problem.size", static_ctx);
  error_of(f, "cost", 1, "state variable 'cost' cannot be used in problem.size", static_ctx);
  Diagnostics d;
  CHECK(f.check("n * lb + a[0][0]", d, static_ctx) == Type::int_);
  CHECK_FALSE(d.has_errors());
}

TEST_CASE("update blocks", "[checker][block]") {
  Fixture f;
  CheckContext place{"branch.place", true, true, true};
  auto check_block_text = [&](const std::string& text, Diagnostics& d) {
    Block b;
    REQUIRE(parse_block(f.source(text), b, d));
    check_block(b, f.spec, place, d);
    return b;
  };
  SECTION("a valid block: let, for, element assignment") {
    Diagnostics d;
    Block b = check_block_text("let t = cost + 1\nfor i in 0..n { loc[i] = i }\ncost = t", d);
    INFO(d.render());
    CHECK_FALSE(d.has_errors());
    REQUIRE(b.size() == 3);
    CHECK(b[1]->sym->kind == Symbol::Kind::local);
    CHECK(b[2]->value->sym == b[0]->sym);
  }
  SECTION("errors") {
    struct Case {
      const char* text;
      int line, col;
      const char* message;
    };
    for (const Case& c : {Case{"cost = free", 1, 8, "cannot assign bits to 'cost' of type int"},
                          Case{"let t = 1\nt = 2", 2, 1, "only state variables and var locals can be assigned; 't' is a let or loop name"},
                          Case{"lb = 1", 1, 1, "'lb' is not a state variable"},
                          Case{"cost = 1\nnope = 1", 2, 1, "'nope' is not defined"},
                          Case{"loc = 1", 1, 1, "'loc' is an array of 1 dimension(s)"},
                          Case{"for i in 0..free: cost = i", 1, 13, "the end of a loop range must be int"}}) {
      Diagnostics d;
      check_block_text(c.text, d);
      INFO(c.text << "\n" << d.render());
      REQUIRE(d.error_count() == 1);
      CHECK(d.all()[0].loc.line == c.line);
      CHECK(d.all()[0].loc.col == c.col);
      CHECK_THAT(d.all()[0].message, Catch::Contains(c.message));
    }
  }
}

TEST_CASE("did_you_mean", "[checker]") {
  CHECK(did_you_mean("candidatse", {"filter", "candidates"}) == "did you mean 'candidates'?");
  CHECK(did_you_mean("xyzzy", {"candidates", "bound"}).empty());
  CHECK(did_you_mean("bnd", {"bound", "place"}) == "did you mean 'bound'?");
}

// BUG (dsl/checker.cpp:231): a reduction written as a call, e.g. `sum(free)`, gets the
// hint "did you mean 'sum'?", suggesting the very name that was typed.
TEST_CASE("a reduction used as a call does not suggest its own name", "[checker]") {
  Fixture f;
  Diagnostics d;
  CHECK(f.check("sum(free)", d) == Type::error);
  REQUIRE(d.error_count() == 1);
  CHECK(d.all()[0].hint != "did you mean 'sum'?");
}

// The checker resolves each builtin once (Expr::builtin, Symbol::builtin); later stages
// switch on that id. min and max are a function and a reduction by one name.
TEST_CASE("builtins resolve to their table entries", "[checker][builtins]") {
  Fixture f;
  Diagnostics d;
  REQUIRE(f.check("min(1, 2) + min(i in free: i) + sum(i in 0..n: i) + popcount(free)", d) == Type::int_);
  const Expr& e = *f.exprs.back();  // ((min + min_of) + sum) + popcount
  CHECK(e.args[1]->builtin == Builtin::popcount);
  CHECK(e.args[0]->args[1]->builtin == Builtin::sum);
  CHECK(e.args[0]->args[0]->args[0]->builtin == Builtin::min);
  CHECK(e.args[0]->args[0]->args[1]->builtin == Builtin::min_of);
  CHECK(e.args[0]->args[0]->args[1]->args[0]->sym->builtin == Builtin::free);
}

// Every function of the table gets its arity message, at the call, from its entry.
TEST_CASE("a function called with the wrong number of arguments, for every function", "[checker][builtins]") {
  Fixture f;
  for (const BuiltinInfo& b : builtins()) {
    if (b.form != BuiltinForm::call) continue;
    const std::string name(b.name);
    const size_t given = b.max_args == kAnyCount ? b.min_args - 1 : b.max_args + 1;
    std::string call = name + "(";
    for (size_t i = 0; i < given; ++i) call += i ? ", 1" : "1";
    call += ")";
    const std::string want = b.min_args == b.max_args ? std::to_string(b.min_args)
                             : b.max_args == kAnyCount ? "at least " + std::to_string(b.min_args)
                                                       : std::to_string(b.min_args) + " to " + std::to_string(b.max_args);
    error_of(f, "1 + " + call, 5, name + "() takes " + want + " argument(s), given " + std::to_string(given));
  }
}

TEST_CASE("builtin argument and name errors", "[checker][builtins]") {
  Fixture f;
  error_of(f, "test(free, free)", 12, "the second argument of test() must be int, found bits");
  error_of(f, "popcount(3)", 10, "popcount() argument must be bits, found int");
  error_of(f, "max(1, free, 2)", 8, "max() argument must be int, found bits");
  // A name of the node is not a function; a two-set reduction's name is suggested.
  error_of(f, "free(1)", 1, "unknown function 'free'");
  Diagnostics d;
  CHECK(f.check("asign(1)", d) == Type::error);
  REQUIRE(d.error_count() == 1);
  CHECK(d.all()[0].message == "unknown function 'asign'");
  CHECK(d.all()[0].hint == "did you mean 'assign'?");
  Diagnostics d2;
  CHECK(f.check("popcnt(free)", d2) == Type::error);
  REQUIRE(d2.error_count() == 1);
  CHECK(d2.all()[0].hint == "did you mean 'popcount'?");
}
