// The ivm skeleton over two-ended trees (templates/ivm_two_ends.h) against the cpu
// oracle: flowshop proofs at the optimum with the same node totals for any number of
// explorers, optima from scratch equal to brute force with a permutation that has the
// reported makespan, and a checkpoint that resumes to the uninterrupted totals.
#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>

#include "../e2e/flowshop_support.hpp"
#include "gpu_support.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {
SolveResult ivm(const Run& r, unsigned long long T = 0, unsigned long long trigger = 0) {
  SolveOptions o = options_for(r, "ivm");
  o.progress = SolveOptions::Progress::off;
  o.explorers = T;
  o.trigger = trigger;
  return solve(o);
}
}  // namespace

TEST_CASE("two-ended ivm proves Taillard 20x5 optima with the cpu's node totals", "[gpu][ivm][two_ends][flowshop]") {
  for (const char* name : {"ta001", "ta002", "ta005", "ta007"}) {
    for (const char* lb : {"lb=1", "lb=2", "lb=3"}) {
      Run r{problem("flowshop.toml"), instance(std::string("flowshop/") + name + ".txt"), {"branching=2", lb},
            taillard_optimum(name)};
      INFO(name << " " << lb);
      SolveResult cpu = solve_with(r, "cpu");
      same_tree(cpu, ivm(r), "ivm");
      same_tree(cpu, ivm(r, 96, 1), "ivm");
      same_tree(cpu, ivm(r, 5000, 4000), "ivm");
    }
  }
}

TEST_CASE("two-ended ivm finds brute force's optimum from scratch", "[gpu][ivm][two_ends][flowshop]") {
  for (unsigned seed : {3u, 4u, 9u}) {
    FlowshopInstance f = random_flowshop(9, 4, seed);
    std::string inst = temp_file("ivm_two_ends_gpu_" + std::to_string(seed) + ".txt", taillard_text(f));
    long long best = brute_force_min(9, false, [&](const std::vector<int>& order) { return makespan(f, order); });
    for (const char* lb : {"lb=1", "lb=3"}) {
      INFO("seed " << seed << " " << lb);
      SolveResult gpu = ivm({problem("flowshop.toml"), inst, {"branching=2", lb}, {}}, 64, 8);
      REQUIRE(gpu.found);
      CHECK(gpu.objective == best);
      REQUIRE(gpu.permutation.size() == 9);
      std::vector<int> order(gpu.permutation.begin(), gpu.permutation.end());
      CHECK(makespan(f, order) == best);
    }
  }
}

// A two-ended tree whose bound never prunes (and whose nodes take both ends, by the
// tie-break on bound sums): a periodic checkpoint copied mid-search resumes to the
// totals of an uninterrupted run.
TEST_CASE("a two-ended ivm search resumes from a checkpoint to the same totals", "[gpu][ivm][two_ends][checkpoint]") {
  std::string spec = temp_file("ivm_two_ends_resume.toml", R"toml(
[problem]
name = "two_ends_resume"
goal = "maximize"
size = "12"

[state]
score = "int"

[branch]
ends = 2
place = { score = "score + v * (d + 1)" }
place_back = { score = "score + (12 - v) * (d + 3)" }
bound = "1000 + score % 11"
objective = "0"
)toml");
  Run r{spec, "", {}, {}};
  SolveResult whole = ivm(r);
  std::string ckpt = temp_file("ivm_two_ends.ckpt", "");
  std::filesystem::remove(ckpt);
  std::string copied = ckpt + ".periodic";
  std::atomic<bool> done{false};
  std::thread copier([&] {
    auto t0 = std::chrono::steady_clock::now();
    while (!done && std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(300))
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (std::filesystem::exists(ckpt))
      std::filesystem::copy_file(ckpt, copied, std::filesystem::copy_options::overwrite_existing);
  });
  SolveOptions o = options_for(r, "ivm");
  o.progress = SolveOptions::Progress::off;
  o.checkpoint = ckpt;
  o.checkpoint_every = 0.05;
  SolveResult checkpointed = solve(o);
  done = true;
  copier.join();
  same_tree(whole, checkpointed, "ivm");
  REQUIRE(std::filesystem::exists(copied));
  SolveOptions again = options_for(r, "ivm");
  again.progress = SolveOptions::Progress::off;
  again.resume = copied;
  same_tree(whole, solve(again), "ivm");
}

// The warm start (runtime/core/warm_start.hpp): the cpu skeleton's incumbent starts the GPU
// search; the answer is the optimum, reported with a permutation of that makespan,
// whether the GPU search or the warm start found it.
TEST_CASE("a warm start gives the GPU search its first incumbent", "[gpu][warm_start][flowshop]") {
  const FlowshopInstance f = read_taillard(instance("flowshop/ta003.txt"));
  for (const char* sk : {"ivm", "dfs", "offload"}) {
    SolveOptions o = options_for({problem("flowshop.toml"), instance("flowshop/ta003.txt"), {"branching=2"}, {}}, sk);
    if (std::string(sk) != "ivm") o.load.params = {"branching=1"};  // one end on the others
    o.progress = SolveOptions::Progress::off;
    o.warm_start = 0.2;
    SolveResult r = solve(o);
    INFO(sk);
    REQUIRE(r.warm_start);
    CHECK(r.warm_start->objective);
    REQUIRE(r.found);
    CHECK(r.objective == taillard_optimum("ta003"));
    CHECK(makespan(f, r.permutation) == r.objective);
  }
}
