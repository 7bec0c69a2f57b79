// Under test: generator/int_width.cpp. Ints stay 32-bit when every value provably fits;
// a value that may pass 32 bits makes them 64-bit (and the device compile stops at its
// place); one that may pass 64 bits is a user error at its place.
#include <catch2/catch.hpp>

#include "generator/generate.hpp"
#include "unit_helpers.hpp"

using namespace permjit;
using namespace permjit::unit;

namespace {

// A minimize spec over 0..7 whose cost grows by `step` at each position (line 10).
std::string growing(const std::string& step, const std::string& init = "0") {
  return "[problem]\n"                                          // 1
         "name = \"w\"\n"                                       // 2
         "goal = \"minimize\"\n"                                // 3
         "size = 8\n"                                           // 4
         "[state]\n"                                            // 5
         "cost = { type = \"int\", init = \"" + init + "\" }\n"  // 6
         "[branch]\n"                                           // 7
         "bound = \"cost\"\n"                                   // 8
         "objective = \"cost\"\n"                               // 9
         "place = { cost = \"" + step + "\" }\n";               // 10
}

std::string source_of(const std::string& spec) { return generate_problem(load_text(spec)).text; }

}  // namespace

TEST_CASE("ints that provably fit 32 bits stay int", "[int_width]") {
  std::string src = source_of(growing("cost + 1000 * v"));
  CHECK(src.find("using Int") == std::string::npos);
  CHECK(src.find("int st_cost;") != std::string::npos);
}

TEST_CASE("a state that may pass 32 bits makes ints 64-bit, and the GPU compile stops at its place", "[int_width]") {
  // 8 positions of up to 7 * 100000000: 5.6e9.
  std::string src = source_of(growing("cost + 100000000 * v"));
  CHECK(src.find("using Int = long long;") != std::string::npos);
  CHECK(src.find("Int st_cost;") != std::string::npos);
  CHECK(src.find("PJ_HD Int bound(const Node& s)") != std::string::npos);
  // The #error of a device compile points at the spec line whose value may pass 32 bits.
  size_t at = src.find("#error");
  REQUIRE(at != std::string::npos);
  CHECK(src.rfind("#line 10 ", at) != std::string::npos);
}

TEST_CASE("a value that may pass 64 bits is an error at its operator", "[int_width][errors]") {
  // cost doubles eight times from 2^60.
  auto spec = growing("cost * 2", "1152921504606846976");
  TempFile f("spec.toml", spec);
  LoadOptions o;
  o.spec_path = f.path();
  ProblemSpec s = load_ok(o);
  try {
    generate_problem(s);
    FAIL("generate_problem accepted a value past 64 bits");
  } catch (const UserErrors& e) {
    REQUIRE(e.diags.error_count() == 1);
    check_at(e.diags.all()[0], 10, 24, "past 64 bits");
  }
}

TEST_CASE("an int built from two 32-bit data reads is computed in 64 bits when it may pass 32", "[int_width]") {
  // Literals and data are `int` in C++: the emitter casts the left operand.
  std::string src = source_of(growing("cost + 2000000000 + v"));
  CHECK(src.find("(Int(") != std::string::npos);
}
