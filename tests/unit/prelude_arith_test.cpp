// Under test: templates/prelude.h's defined arithmetic on the host (the device runs the
// same source), against the static evaluator's results (docs/reliability.md).
#include <catch2/catch.hpp>
#include <climits>

#include "templates/prelude.h"

TEST_CASE("the prelude's division, remainder and shifts give the defined results", "[prelude][arith]") {
  CHECK(pj::div(7, 0) == 0);
  CHECK(pj::rem(7, 0) == 7);
  CHECK(pj::rem(-7, 0) == -7);
  CHECK(pj::div(INT_MIN, -1) == INT_MIN);  // wraps; generated code widens before it can happen
  CHECK(pj::rem(INT_MIN, -1) == 0);
  CHECK(pj::div(-7, 2) == -3);
  CHECK(pj::rem(-7, 2) == -1);
  CHECK(pj::div(9, -1) == -9);
  CHECK(pj::div(7LL, 0LL) == 0);
  CHECK(pj::rem(7LL, 0LL) == 7);
  CHECK(pj::div(LLONG_MIN, -1LL) == LLONG_MIN);
  CHECK(pj::div(-(1LL << 40), -1LL) == (1LL << 40));
  CHECK(pj::shl(1, 32) == 0);
  CHECK(pj::shl(1, -1) == 0);
  CHECK(pj::shl(-1, 31) == INT_MIN);
  CHECK(pj::shr(-5, 40) == -1);
  CHECK(pj::shr(5, 40) == 0);
  CHECK(pj::shr(-8, 1) == -4);
  CHECK(pj::shl_bits<unsigned>(1u, 32) == 0u);
  CHECK(pj::shr_bits<unsigned long long>(~0ull, 64) == 0ull);
  CHECK(pj::bit_any<unsigned>(40) == 0u);
  CHECK(pj::bit_any<unsigned long long>(40) == (1ull << 40));
  CHECK_FALSE(pj::test_any(~0u, -1));
  CHECK(pj::test_any(~0u, 31));
}
