// `ida --gpus N` on the host (runtime/ida/ida_gpus.hpp): the live roots shared among the
// GPUs, each once, each share in root order, the largest first onto the least loaded;
// the GPUs' parts of an iteration summed, their next limits' least, the first GPU with a
// goal.
#include <catch2/catch.hpp>
#include <algorithm>
#include <climits>
#include <numeric>

#include "runtime/ida/ida_gpus.hpp"

using namespace permjit;

namespace {
double load(const std::vector<unsigned>& share, const std::vector<double>& expected) {
  double l = 0;
  for (unsigned r : share) l += expected[r];
  return l;
}
}  // namespace

TEST_CASE("ida --gpus: every live root goes to one GPU, in root order, the loads balanced", "[unit][ida][gpus]") {
  std::vector<double> expected(40);
  for (size_t i = 0; i < expected.size(); ++i) expected[i] = 1.0 + static_cast<double>((i * 37) % 11) * (i % 4 ? 1 : 50);
  std::vector<unsigned> live;
  for (unsigned i = 0; i < 40; ++i)
    if (i % 3 != 1) live.push_back(i);
  CHECK(share_roots(live, expected, 1) == std::vector<std::vector<unsigned>>{live});
  for (int gpus : {2, 3, 4, 7}) {
    CAPTURE(gpus);
    const auto shares = share_roots(live, expected, gpus);
    REQUIRE(shares.size() == static_cast<size_t>(gpus));
    std::vector<unsigned> all;
    double most = 0, least = 1e300, largest = 0;
    for (const auto& s : shares) {
      CHECK(std::is_sorted(s.begin(), s.end()));
      all.insert(all.end(), s.begin(), s.end());
      most = std::max(most, load(s, expected));
      least = std::min(least, load(s, expected));
    }
    for (unsigned r : live) largest = std::max(largest, expected[r]);
    std::sort(all.begin(), all.end());
    CHECK(all == live);
    // LPT: the fullest GPU holds at most one root more than the emptiest.
    CHECK(most - least <= largest);
    // The same shares for the same input (no dependence on a sort's stability).
    CHECK(share_roots(live, expected, gpus) == shares);
  }
  // More GPUs than roots: some get none.
  const auto few = share_roots({3, 5}, expected, 4);
  REQUIRE(few.size() == 4);
  CHECK(std::count_if(few.begin(), few.end(), [](const auto& s) { return s.empty(); }) == 2);
  CHECK(share_roots({}, expected, 3) == std::vector<std::vector<unsigned>>(3));
}

TEST_CASE("ida --gpus: an iteration's parts add up, the least next limit, the first GPU with a goal",
          "[unit][ida][gpus]") {
  std::vector<IdaGpuPart> parts(3);
  parts[0].below = {100, 250, 0, 52};
  parts[0].max_work = 40, parts[0].work = 100, parts[0].workers = 4, parts[0].searched = true, parts[0].donated = 3;
  parts[1].below = {0, 0, 0, INT_MAX};  // no roots this iteration
  parts[2].below = {60, 140, 2, 50};
  parts[2].max_work = 45, parts[2].work = 60, parts[2].workers = 4, parts[2].searched = true, parts[2].stopped = true;
  IdaCombined c = combine_parts(parts);
  CHECK(c.below.expanded == 160);
  CHECK(c.below.evaluated == 390);
  CHECK(c.below.solutions == 2);
  CHECK(c.below.next_limit == 50);
  CHECK(c.max_work == 45);
  CHECK(c.mean_work == Approx(160.0 / 8));  // over the workers of the GPUs that searched
  CHECK(c.donated == 3);
  CHECK(c.stopped);
  CHECK(c.solved_gpu == 2);
  parts[0].below.solutions = 1;
  CHECK(combine_parts(parts).solved_gpu == 0);
  // Nothing searched: no limit above, no goal, no work.
  IdaCombined none = combine_parts(std::vector<IdaGpuPart>(2));
  CHECK(none.below.next_limit == INT_MAX);
  CHECK(none.solved_gpu == -1);
  CHECK(none.mean_work == 0);
  CHECK_FALSE(none.stopped);
}

// The greedy step both the GPUs' shares and one GPU's warp lists take: each item, in the
// order given, onto the bin with the least work so far, ties to the lower bin.
TEST_CASE("least_loaded puts each item in turn on the least loaded bin", "[unit][ida][gpus]") {
  const std::vector<double> expected{5, 4, 3, 3, 1};
  using Lists = std::vector<std::vector<unsigned>>;
  CHECK(least_loaded({0, 1, 2, 3, 4}, expected, 2) == Lists{{0, 3}, {1, 2, 4}});
  CHECK(least_loaded({4, 3, 2}, expected, 3) == Lists{{4}, {3}, {2}});
  CHECK(least_loaded({0, 1}, expected, 3) == Lists{{0}, {1}, {}});
  CHECK(least_loaded({}, expected, 2) == Lists{{}, {}});
}
