// Under test: defined arithmetic in generated code (templates/prelude.h pj::div, pj::rem,
// pj::shl, pj::shr, pj::bit_any, pj::test_any; generator/emit_arith.cpp) on the CPU
// backend. A division by zero at run time used to kill the solve (SIGILL); every
// result below is the one docs/reliability.md defines, which the static evaluator
// computes too.
#include "e2e_support.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

// Counts the permutations of 0..4 whose every position passes `filter`.
long long count_with(const std::string& name, const std::string& filter) {
  std::string spec = temp_file(name + ".toml", R"TOML(
[problem]
name = "arith"
goal = "count"
size = 5
[state]
x = "int"
[branch]
filter = ')TOML" + filter + R"TOML('
place = { x = "x + 7 / (d - d) + 7 % (d - d) + (v << (d + 40))" }
)TOML");
  return static_cast<long long>(run(spec).solutions);
}

}  // namespace

TEST_CASE("division and remainder by zero have defined results at run time", "[e2e][arith]") {
  CHECK(count_with("div0", "7 / (d - d) == 0 && 7 % (d - d) == 7 && -7 % (d - d) == -7") == 120);
}

TEST_CASE("INT_MIN / -1 is exact: a quotient that may pass 32 bits makes ints 64-bit", "[e2e][arith]") {
  CHECK(count_with("intmin", "(-2147483647 - 1) / (d - d - 1) == 2147483647 + 1 && (-2147483647 - 1) % (d - d - 1) == 0 "
                             "&& 9 / (d - d - 1) == -9") == 120);
}

TEST_CASE("shifts by counts outside the word have defined results", "[e2e][arith]") {
  CHECK(count_with("shift", "(1 << (d + 32)) == 0 && (1 << (d - 9)) == 0 && (-5 >> (d + 32)) == -1 "
                            "&& (5 >> (d + 32)) == 0 && (-8 >> (d - d + 1)) == -4") == 120);
  CHECK(count_with("bits", "!test(all, v + 32) && !test(all, v - 9) && (all << (d + 40)) == ~all "
                           "&& (all >> (d + 40)) == ~all && popcount(bit(v + 40)) == 0") == 120);
}
