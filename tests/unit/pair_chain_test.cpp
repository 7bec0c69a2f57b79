// Under test: `assign(i in S, j in T: cost then arborescence [steps K])` in the language
// (dsl/parser.cpp, dsl/checker.cpp, generator/emit_pair_reduce.cpp, generator/int_width.cpp):
// its misuse reported at its place, `then` and `steps` still free as names elsewhere,
// the solver call it lowers to, how `emit --stage spec` prints it, and the width of the
// ints it computes with.
#include <catch2/catch.hpp>

#include "dsl/describe.hpp"
#include "dsl/lagrange_root.hpp"
#include "generator/generate.hpp"
#include "unit_helpers.hpp"

using namespace permjit;
using namespace permjit::unit;

namespace {

// A minimize spec over 0..5 whose bound is `bound` (line 12), with data `w` whose
// values are `scale` and 0, and a parameter `k`.
std::string bounded(const std::string& bound) {
  return "[problem]\n"                      // 1
         "name = \"b\"\n"                   // 2
         "goal = \"minimize\"\n"            // 3
         "size = 6\n"                       // 4
         "[params]\n"                       // 5
         "scale = 1\n"                      // 6
         "k = 4\n"                          // 7
         "[derived]\n"                      // 8
         "w = { type = \"int[6][6]\", index = [\"i\", \"j\"], value = \"(i + j) % 2 * scale\" }\n"  // 9
         "[branch]\n"                       // 10
         "objective = \"0\"\n"              // 11
         "bound = \"" + bound + "\"\n";     // 12
}

Diagnostics bound_errors(const std::string& bound) { return spec_errors(bounded(bound)); }

std::string source_with(const std::string& bound, const std::string& scale) {
  TempFile f("spec.toml", bounded(bound));
  LoadOptions o;
  o.spec_path = f.path();
  o.params = {"scale=" + scale};
  return generate_problem(load_ok(o)).text;
}

}  // namespace

TEST_CASE("assign then arborescence lowers to assign_then_arborescence with its steps", "[assign][lagrange]") {
  std::string src = source_with("assign(i in free | bit(last), j in free: w[i][j] then arborescence steps k * 2)", "7");
  CHECK(src.find("pj::assign_then_arborescence<int, 6, 6>(") != std::string::npos);
  CHECK(src.find(", 8);") != std::string::npos);  // k * 2 steps, known before the search
  std::string additive = source_with("assign(i in free | bit(last), j in free: w[i][j] then arborescence)", "7");
  CHECK(additive.find(", 0);") != std::string::npos);
}

// Before: the printer returned at the plain assign() form first, so `emit --stage spec`
// showed a chained assign() without its `then arborescence steps K`.
TEST_CASE("emit --stage spec prints assign ... then arborescence with its steps", "[assign][lagrange]") {
  TempFile f("spec.toml", bounded("assign(i in free, j in free: w[i][j] then arborescence steps k * 2)"));
  LoadOptions o;
  o.spec_path = f.path();
  const std::string text = describe_spec(load_ok(o));
  CHECK(text.find("assign(i in free, j in free: w[i][j] then arborescence steps (k * 2))") != std::string::npos);
  TempFile g("spec.toml", bounded("assign(i in free, j in free: w[i][j] then arborescence)"));
  o.spec_path = g.path();
  CHECK(describe_spec(load_ok(o)).find("w[i][j] then arborescence)") != std::string::npos);
}

TEST_CASE("misused assign ... then is an error at its place", "[assign][lagrange][errors]") {
  SECTION("only assign hands on reduced costs") {
    auto d = bound_errors("arborescence(i in free, j in free: w[i][j] then arborescence)");
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 12, 10, "arborescence() has no reduced costs to hand on with 'then'");
  }
  SECTION("assign then assign adds nothing") {
    auto d = bound_errors("assign(i in free, j in free: w[i][j] then assign)");
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 12, 10, "only arborescence can follow assign() with 'then'");
  }
  SECTION("then needs a reduction over a cost matrix") {
    auto d = bound_errors("assign(i in free, j in free: w[i][j] then minprod)");
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 12, 52, "'minprod' is not a reduction over a cost matrix");
    auto e = bound_errors("assign(i in free, j in free: w[i][j] then 3)");
    REQUIRE(e.error_count() == 1);
    check_at(e.all()[0], 12, 52, "expected the name of the reduction after 'then'");
  }
  SECTION("steps known before the search, within range, an int") {
    auto d = bound_errors("assign(i in free, j in free: w[i][j] then arborescence steps popcount(free))");
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 12, 71, "must be known before the search");
    auto e = bound_errors("assign(i in free, j in free: w[i][j] then arborescence steps 1001)");
    REQUIRE(e.error_count() == 1);
    check_at(e.all()[0], 12, 71, "steps 1001 is outside 0..1000");
    auto f = bound_errors("assign(i in free, j in free: w[i][j] then arborescence steps -1)");
    REQUIRE(f.error_count() == 1);
    check_at(f.all()[0], 12, 71, "steps -1 is outside 0..1000");
    auto g = bound_errors("assign(i in free, j in free: w[i][j] then arborescence steps true)");
    REQUIRE(g.error_count() == 1);
    check_at(g.all()[0], 12, 71, "must be int, found bool");
  }
  SECTION("not in [derived]") {
    auto d = spec_errors(spec_with_derived("t = \"assign(i in 0..3, j in 0..3: i + j then arborescence)\"\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 8, 6, "solved in the search's code, not in");
  }
}

TEST_CASE("assign ... multiplier x in [derived] and ... from E at the node", "[assign][lagrange]") {
  // Multipliers for the path 0 -> 1 -> 2 -> 3 -> the sink: A = 0..3, B = 1..4.
  const std::string table = "pi = { type = \"int[4]\", index = [\"c\"], value = \"assign(i in 0..4, j in 1..5: "
                            "(i * 7 + j * 3) % 11 then arborescence steps 2000 multiplier c)\" }\n";
  ProblemSpec s = load_text(spec_with_derived(table));
  std::vector<int64_t> sa{0, 1, 2, 3}, tb{1, 2, 3, 4};
  std::vector<std::vector<int64_t>> c(4, std::vector<int64_t>(4));
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) c[size_t(i)][size_t(j)] = (i * 7 + (j + 1) * 3) % 11;
  CHECK(s.find_data("pi")->values == root_multipliers(sa, tb, c, 2000));
  std::string src = source_with("assign(i in free | bit(last), j in free: w[i][j] then arborescence steps 3 from w[i][i] - 1)", "7");
  CHECK(src.find("pj::assign_then_arborescence<int, 6, 6>(") != std::string::npos);
  CHECK(src.find(", 3, start") != std::string::npos);  // the starts, listed before the call
}

TEST_CASE("misused multiplier and from are errors at their place", "[assign][lagrange][errors]") {
  SECTION("multiplier only in [derived]") {
    auto d = bound_errors("assign(i in free, j in free: w[i][j] then arborescence steps 2 multiplier 1)");
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 12, 84, "computed once before the search");
  }
  SECTION("from reads only side A's name, parameters and data") {
    auto d = bound_errors("assign(i in free, j in free: w[i][j] then arborescence steps 2 from w[i][last])");
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 12, 83, "reads 'last', which the search changes");
    auto e = bound_errors("assign(i in free, j in free: w[i][j] then arborescence steps 2 from j)");
    REQUIRE(e.error_count() == 1);
    check_at(e.all()[0], 12, 78, "unknown name 'j'");
    auto f = bound_errors("assign(i in free, j in free: w[i][j] then arborescence steps 2 from free)");
    REQUIRE(f.error_count() == 1);
    check_at(f.all()[0], 12, 78, "must be int");
  }
  SECTION("from is not for [derived]; a root's steps may pass 1000, not 100000") {
    auto d = spec_errors(spec_with_derived("t = \"assign(i in 0..3, j in 1..4: i + j then arborescence from 2)\"\n"));
    REQUIRE(d.error_count() == 1);
    check_at(d.all()[0], 8, 6, "solved in the search's code, not in");
    auto e = spec_errors(spec_with_derived("t = \"assign(i in 0..3, j in 1..4: i + j then arborescence steps 100001 multiplier 0)\"\n"));
    REQUIRE(e.error_count() == 1);
    check_at(e.all()[0], 8, 65, "steps 100001 is outside 0..100000");
  }
}

TEST_CASE("then and steps stay names outside assign()", "[assign][lagrange]") {
  ProblemSpec s = load_text(spec_with_derived("then = \"2\"\nsteps = \"then + 1\"\n"));
  CHECK(s.find_data("steps")->values.at(0) == 3);
}

TEST_CASE("assign then arborescence computes in 64 bits where its multipliers could pass 32", "[assign][int_width]") {
  // Costs 0 and 3e7 over six elements: assign alone fits 32 bits, but the Lagrangian
  // bound's sums (up to 16k times the spread + 4k times the largest cost) do not.
  const std::string plain = "assign(i in free | bit(last), j in free: w[i][j])";
  const std::string chained = "assign(i in free | bit(last), j in free: w[i][j] then arborescence steps 3)";
  CHECK(source_with(plain, "30000000").find("pj::assign_min<int, 6, 6>") != std::string::npos);
  std::string wide = source_with(chained, "30000000");
  CHECK(wide.find("using Int = long long;") != std::string::npos);
  CHECK(wide.find("pj::assign_then_arborescence<Int, 6, 6>") != std::string::npos);
  CHECK(source_with(chained, "1000").find("pj::assign_then_arborescence<int, 6, 6>") != std::string::npos);
}

TEST_CASE("a branch that a known condition leaves out does not widen the ints", "[assign][int_width]") {
  // k == 4 before the search: the emitter writes the plain assign() alone, so the
  // chained one's wider sums must not make the whole spec compute in 64 bits (they did,
  // and kept atsp.toml's default off the GPU on ry48p).
  const std::string bound = "k == 4 ? assign(i in free | bit(last), j in free: w[i][j]) : "
                            "assign(i in free | bit(last), j in free: w[i][j] then arborescence steps 3)";
  std::string src = source_with(bound, "30000000");
  CHECK(src.find("using Int = long long;") == std::string::npos);
  CHECK(src.find("pj::assign_min<int, 6, 6>") != std::string::npos);
  CHECK(src.find("assign_then_arborescence") == std::string::npos);
}
