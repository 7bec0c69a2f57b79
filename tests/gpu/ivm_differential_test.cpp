// The ivm skeleton against the CPU oracle and dfs: the same counts, optima and, with
// --ub at the optimum, the same node totals, for any number of explorers and trigger;
// and a search interrupted by SIGINT, or killed after a periodic checkpoint, resumes to
// the totals of an uninterrupted run.
#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <thread>

#include "gpu_support.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {
// An ivm solve; `set` changes the ivm options a test varies.
template <class Set>
SolveResult ivm(const Run& r, Set&& set) {
  SolveOptions o = options_for(r, "ivm");
  o.progress = SolveOptions::Progress::off;
  set(o);
  return solve(o);
}
SolveResult ivm(const Run& r) {
  return ivm(r, [](SolveOptions&) {});
}
auto explorers(unsigned long long T, unsigned long long trigger) {
  return [=](SolveOptions& o) {
    o.explorers = T;
    o.trigger = trigger;
  };
}
}  // namespace

TEST_CASE("ivm counts N-Queens like the CPU, for any explorers and trigger", "[gpu][ivm][nqueens]") {
  for (int n : {4, 5, 8, 10, 12}) {
    Run r{problem("nqueens.toml"), "", {"n=" + std::to_string(n)}, {}};
    SolveResult cpu = solve_with(r, "cpu");
    INFO("n = " << n);
    same_tree(cpu, ivm(r), "ivm");
    for (auto [T, trigger] : {std::pair{1ull, 1ull}, std::pair{64ull, 1ull}, std::pair{1000ull, 999ull},
                              std::pair{4096ull, 100000ull}}) {
      INFO("explorers " << T << ", trigger " << trigger);
      same_tree(cpu, ivm(r, explorers(T, trigger)), "ivm");
    }
  }
}

// A block's rows in shared memory beside the kernel's own __shared__ words: 384 bytes
// of rows per thread at n = 12, so 128 threads need exactly 48 KiB of rows, and the
// launch needs the opt-in above 48 KiB (it failed with CUDA_ERROR_INVALID_VALUE when
// only the rows were counted).
TEST_CASE("ivm rows in shared memory across the 48 KiB opt-in", "[gpu][ivm][nqueens]") {
  Run r{problem("nqueens.toml"), "", {"n=12"}, {}};
  SolveResult cpu = solve_with(r, "cpu");
  for (int block : {96, 128, 160}) {
    INFO("block " << block);
    same_tree(cpu, ivm(r, [=](SolveOptions& o) {
                o.block_size = block;
                o.ivm_rows = "shared";
              }),
              "ivm");
  }
}

TEST_CASE("ivm proves ATSP and QAP optima with the CPU's node totals", "[gpu][ivm][atsp][qap]") {
  std::vector<Run> runs = atsp_qap_runs("ivm", {41u, 42u, 43u});
  for (Run r : runs) {
    INFO(r.spec << " " << r.inst << (r.params.empty() ? "" : " " + r.params[0]));
    SolveResult cpu = solve_with(r, "cpu");
    SolveResult gpu = ivm(r);
    REQUIRE(cpu.found);
    REQUIRE(gpu.found);
    CHECK(gpu.objective == cpu.objective);
    r.ub = cpu.objective;
    SolveResult cpu_ub = solve_with(r, "cpu");
    same_tree(cpu_ub, ivm(r), "ivm");
    same_tree(cpu_ub, ivm(r, explorers(128, 1)), "ivm");
  }
}

TEST_CASE("ivm reports an optimal permutation whose cost is the optimum", "[gpu][ivm][atsp]") {
  Matrix d = random_matrix(11, 1, 99, 77);
  std::string inst = temp_file("ivm_atsp_perm.atsp", tsplib_text(d));
  SolveResult gpu = ivm({problem("atsp.toml"), inst, {"lb=0"}, {}});
  REQUIRE(gpu.found);
  REQUIRE(gpu.permutation.size() == 11);
  CHECK(tour_cost(d, gpu.permutation) == gpu.objective);
  CHECK(gpu.objective == brute_force_min(11, true, [&](const std::vector<int>& p) { return tour_cost(d, p); }));
}

TEST_CASE("ivm on br17: 39, and at the optimum the tree of cpu and dfs", "[gpu][ivm][slow]") {
  SolveResult br = ivm({problem("atsp.toml"), instance("atsp/br17.atsp"), {"lb=0"}, {}});
  REQUIRE(br.found);
  CHECK(br.objective == 39);
  Run at_opt{problem("atsp.toml"), instance("atsp/br17.atsp"), {"lb=0"}, 39};
  SolveResult dfs = solve_with(at_opt, "dfs");
  same_tree(dfs, ivm(at_opt), "ivm");
}

TEST_CASE("an ivm search stopped by SIGINT resumes to the uninterrupted totals", "[gpu][ivm][checkpoint]") {
  // N-Queens 20: its search (3-4 s on the H100) must outlast the signal. N-Queens 18 and
  // then 19 did until the counting loop got faster, and then finished before it.
  Run q20{problem("nqueens.toml"), "", {"n=20"}, {}};
  SolveResult whole = ivm(q20);  // compiled and cached: the next run starts searching at once
  REQUIRE(whole.solutions == 39029188884ull);  // OEIS A000170
  std::string ckpt = temp_file("ivm_q20.ckpt", "");
  std::filesystem::remove(ckpt);
  std::string copied = ckpt + ".periodic";

  // SIGINT a second into the run (module load included); meanwhile keep a copy of a
  // periodic checkpoint (every 0.1 s: rounds are cut that often), as if the process had
  // been killed without warning just after it.
  const std::optional<SolveResult> stopped = interrupted_after(
      1000,
      [&] {
        return ivm(q20, [&](SolveOptions& o) {
          o.checkpoint = ckpt;
          o.checkpoint_every = 0.1;
        });
      },
      [&] {
        if (std::filesystem::exists(ckpt))
          std::filesystem::copy_file(ckpt, copied, std::filesystem::copy_options::overwrite_existing);
      });
  // The partial result is returned as after a time limit: the count so far, the
  // subtrees left, and no bound (a count has none).
  REQUIRE(stopped);
  CHECK(stopped->solutions < whole.solutions);
  CHECK(stopped->open_subtrees > 0);
  CHECK_FALSE(stopped->proven_bound);
  CHECK_THAT(format_json(*stopped), Catch::Contains("\"interrupted_by_signal\":2"));
  REQUIRE(std::filesystem::exists(copied));

  for (const std::string& from : {ckpt, copied}) {
    INFO("resumed from " << from);
    SolveResult resumed = ivm(q20, [&](SolveOptions& o) { o.resume = from; });
    REQUIRE(resumed.ivm);
    CHECK(resumed.ivm->resumed_from == from);
    same_tree(whole, resumed, "ivm");
  }
  // A checkpoint of another instance is refused.
  Run q17{problem("nqueens.toml"), "", {"n=17"}, {}};
  CHECK_THROWS_WITH(ivm(q17, [&](SolveOptions& o) { o.resume = ckpt; }),
                    Catch::Contains("cannot resume from") && Catch::Contains("another spec, instance or --param"));
}
