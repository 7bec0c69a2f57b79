// The ivm skeleton's idle share (runtime/ivm/ivm_idle.hpp) and its work-sharing settings
// for measuring (PERMJIT_IVM_BALANCE, runtime/ivm/ivm_device.hpp).
#include <catch2/catch.hpp>
#include <cmath>

#include "dsl/diagnostics.hpp"
#include "runtime/ivm/ivm_device.hpp"
#include "runtime/ivm/ivm_idle.hpp"

using namespace permjit;

TEST_CASE("the idle share is the explorers' kernel time without work", "[ivm]") {
  IvmIdleMeter m(100);
  IvmIdleTotals totals;
  m.report_to(&totals);
  // Two rounds of 10 ms: all 100 busy throughout, then 60 busy for half of it.
  m.add_round(0.010, 100, 100ull * 10'000'000ull, 5, 1000);
  m.add_round(0.010, 60, 60ull * 5'000'000ull, 12, 1500);
  const IvmIdleSummary s = m.summary();
  CHECK(s.total.rounds == 2);
  CHECK(s.total.steals == 7);  // counted from the first round's: the steals before it are the start's
  CHECK(s.total.evaluated == 1500);
  CHECK(s.total.explorer_s == Approx(2.0));
  CHECK(s.total.busy_s == Approx(1.3));
  CHECK(s.total.idle() == Approx(0.35));
  CHECK(s.total.busy_start == 160);
  CHECK(static_cast<double>(totals.busy_ns) == Approx(1.3e9));
  CHECK(static_cast<double>(totals.explorer_ns) == Approx(2.0e9));
  // A block that started before the host's event is never more busy than the whole.
  m.add_round(0.001, 100, 100ull * 2'000'000ull, 12, 1600);
  CHECK(m.summary().total.busy_s <= m.summary().total.explorer_s);
}

TEST_CASE("the idle series holds every round, in at most 64 samples", "[ivm]") {
  IvmIdleMeter m(10);
  unsigned long long evaluated = 0;
  // Samples close by the host's clock (every 0.05 s at first): these rounds close few.
  for (int k = 0; k < 1000; ++k) m.add_round(0.001, 10, 10'000'000ull, 0, evaluated += 10);
  const IvmIdleSummary s = m.summary();
  CHECK(s.samples.size() <= IvmIdleMeter::kMaxSamples);
  unsigned long long rounds = 0;
  for (const IvmIdleSample& x : s.samples) rounds += x.rounds;
  CHECK(rounds == 1000);  // every round in some sample
  CHECK(s.total.evaluated == 10000);
}

TEST_CASE("PERMJIT_IVM_BALANCE reads victims, passes, slice and trigger, and rejects anything else", "[ivm]") {
  IvmBalance b = parse_ivm_balance("victims=log,passes=4,slice=0.02,trigger=0.125");
  CHECK(b.victims == IvmBalance::Victims::log);
  CHECK(b.passes == 4);
  REQUIRE(b.slice);
  CHECK(*b.slice == 0.02);
  CHECK(b.trigger == 0.125);
  CHECK(b.describe() == "victims=log,passes=4,slice=0.02,trigger=0.125");
  b = parse_ivm_balance("slice=0");  // one GPU's rounds uncut, as they were
  REQUIRE(b.slice);
  CHECK(*b.slice == 0);
  CHECK(parse_ivm_balance("victims=mean").describe() == "victims=mean,passes=1");
  for (const char* bad : {"victims=max", "passes=0", "passes=17", "passes=x", "slice=-1", "slice=", "trigger=0",
                          "trigger=2", "speed=3", "victims=log,,passes=2"}) {
    INFO(bad);
    CHECK_THROWS_AS(parse_ivm_balance(bad), UserErrors);
  }
}

TEST_CASE("victims qualify above the mean of all lengths or the geometric mean of those with work", "[ivm]") {
  // Four explorers with work, of 2^10, 2^20, 2^30 and 2^60 leaves, among eight: the mean
  // is the one deep explorer's, the geometric mean a typical one's.
  const double lengths[] = {std::exp2(10), std::exp2(20), std::exp2(30), std::exp2(60)};
  double sum = 0, logs = 0;
  for (double l : lengths) sum += l, logs += std::log2(l);
  CHECK(victim_threshold(IvmBalance::Victims::mean, sum, logs, 4, 8) == Approx(sum / 8));
  CHECK(victim_threshold(IvmBalance::Victims::log, sum, logs, 4, 8) == Approx(std::exp2(30)));
  CHECK(victim_threshold(IvmBalance::Victims::log, 0, 0, 0, 8) == 0);
}
