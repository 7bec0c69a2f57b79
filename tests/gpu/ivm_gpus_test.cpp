// The ivm skeleton on several GPUs (--gpus) against the cpu oracle: the same counts and,
// at the optimum, the same node totals, one end and two; a checkpoint of a run on several
// GPUs resumes on another number of them to the uninterrupted totals. A GPU listed twice
// runs two workers that share it, so these run on a machine with one GPU too; "all" uses
// every GPU the machine has.
#include <filesystem>

#include "../e2e/flowshop_support.hpp"
#include "gpu_support.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {
SolveResult ivm_on(const Run& r, const std::string& gpus, unsigned long long T = 0, unsigned long long trigger = 0) {
  SolveOptions o = options_for(r, "ivm");
  o.progress = SolveOptions::Progress::off;
  o.gpus = gpus;
  o.explorers = T;
  o.trigger = trigger;
  return solve(o);
}
const char* const kLists[] = {"all", "0,0", "0,0,0"};
}  // namespace

TEST_CASE("ivm on several GPUs counts N-Queens like the CPU", "[gpu][ivm][gpus]") {
  for (int n : {8, 10, 12}) {
    Run r{problem("nqueens.toml"), "", {"n=" + std::to_string(n)}, {}};
    SolveResult cpu = solve_with(r, "cpu");
    for (const char* gpus : kLists) {
      INFO("n = " << n << ", --gpus " << gpus);
      SolveResult g = ivm_on(r, gpus);
      same_tree(cpu, g, "ivm");
      REQUIRE(g.ivm);
      CHECK(g.ivm->gpus >= 1);
      same_tree(cpu, ivm_on(r, gpus, 64, 1), "ivm");
    }
  }
}

TEST_CASE("ivm on several GPUs proves ATSP and QAP optima with the CPU's node totals", "[gpu][ivm][gpus][atsp][qap]") {
  for (Run r : atsp_qap_runs("ivm", {41u, 42u})) {
    INFO(r.spec << " " << r.inst);
    SolveResult cpu = solve_with(r, "cpu");
    REQUIRE(cpu.found);
    SolveResult free_run = ivm_on(r, "0,0");
    REQUIRE(free_run.found);
    CHECK(free_run.objective == cpu.objective);
    r.ub = cpu.objective;
    SolveResult cpu_ub = solve_with(r, "cpu");
    for (const char* gpus : kLists) {
      INFO("--gpus " << gpus);
      same_tree(cpu_ub, ivm_on(r, gpus), "ivm");
    }
  }
}

TEST_CASE("two-ended ivm on several GPUs proves Taillard 20x5 optima with the cpu's node totals",
          "[gpu][ivm][gpus][two_ends][flowshop]") {
  for (const char* name : {"ta001", "ta005"}) {
    Run r{problem("flowshop.toml"), instance(std::string("flowshop/") + name + ".txt"), {}, taillard_optimum(name)};
    SolveResult cpu = solve_with(r, "cpu");
    for (const char* gpus : kLists) {
      INFO(name << ", --gpus " << gpus);
      same_tree(cpu, ivm_on(r, gpus), "ivm");
      same_tree(cpu, ivm_on(r, gpus, 96, 1), "ivm");
    }
  }
  // From scratch: the optimum and a permutation with that makespan.
  FlowshopInstance f = random_flowshop(9, 4, 3u);
  std::string inst = temp_file("ivm_gpus_flowshop.txt", taillard_text(f));
  long long best = brute_force_min(9, false, [&](const std::vector<int>& order) { return makespan(f, order); });
  SolveResult g = ivm_on({problem("flowshop.toml"), inst, {}, {}}, "0,0", 64, 8);
  REQUIRE(g.found);
  CHECK(g.objective == best);
  std::vector<int> order(g.permutation.begin(), g.permutation.end());
  CHECK(makespan(f, order) == best);
}

TEST_CASE("a checkpoint of ivm on several GPUs resumes on another number of GPUs", "[gpu][ivm][gpus][checkpoint]") {
  // N-Queens 19: about a second on two workers sharing an H100, stopped after 0.3 s (N-Queens
  // 18 finished first once the counting loop got faster). The whole tree from one GPU.
  Run q19{problem("nqueens.toml"), "", {"n=19"}, {}};
  SolveResult whole = solve_with(q19, "ivm");
  REQUIRE(whole.solutions == 4968057848ull);  // OEIS A000170
  std::string ckpt = temp_file("ivm_gpus_q19.ckpt", "");
  std::filesystem::remove(ckpt);
  ivm_on(q19, "0,0");  // compiled and cached: the next run starts searching at once
  const std::optional<SolveResult> stopped = interrupted_after(300, [&] {
    SolveOptions o = options_for(q19, "ivm");
    o.progress = SolveOptions::Progress::off;
    o.gpus = "0,0";
    o.checkpoint = ckpt;
    o.checkpoint_every = 0.05;
    return solve(o);
  });
  REQUIRE(stopped);
  // The count so far and the subtrees left, from both workers' explorers.
  CHECK(stopped->solutions < whole.solutions);
  CHECK(stopped->open_subtrees > 0);
  for (const char* gpus : {"", "0,0,0"}) {
    INFO("resumed on --gpus " << gpus);
    SolveOptions o = options_for(q19, "ivm");
    o.progress = SolveOptions::Progress::off;
    o.gpus = gpus;
    o.resume = ckpt;
    SolveResult resumed = solve(o);
    same_tree(whole, resumed, "ivm");
  }
}
