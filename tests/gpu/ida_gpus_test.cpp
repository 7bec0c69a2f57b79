// The ida skeleton on several GPUs (--gpus) against the CPU IDA* oracle: with
// --all-solutions the same counts in every iteration (the live roots of each iteration
// shared among the GPUs, each with its own copy of the pattern tables), the same optimum
// and a path that reaches the goal on the first solution, and --time-limit stopping a
// long iteration on every GPU with a proven bound. `--gpus 0,0` runs two workers that
// share GPU 0, so these run on a machine with one GPU; `--gpus 2` needs two and says so
// when it is skipped.
#include <sstream>

#include "gpu_support.hpp"
#include "puzzle_support.hpp"
#include "runtime/device/cuda_driver.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {
// The GPU lists to run: two workers on GPU 0 always; the first two GPUs where there are two.
std::vector<std::string> gpu_lists() {
  std::vector<std::string> lists{"0,0"};
  const int count = cuda::device_count(nullptr);
  if (count >= 2)
    lists.push_back("2");
  else
    WARN("--gpus 2 skipped: this host has " << count << " GPU(s); --gpus 0,0 runs two workers on GPU 0");
  return lists;
}

// Every record of `records` solved with `skeleton` on `gpus` (none: the default).
std::vector<SolveResult> solve_all(SolveOptions o, const std::string& records, const std::string& skeleton,
                                   const std::string& gpus) {
  o.skeleton = skeleton;
  o.threads = skeleton == "cpu" ? 2 : 0;
  o.gpus = gpus;
  o.cache_dir = cache_dir();
  std::vector<SolveResult> got;
  solve_records(o, records, [&](const SolveResult& r) { got.push_back(r); });
  return got;
}

void same_counts(const std::vector<SolveResult>& cpu, const std::vector<SolveResult>& gpu, int w,
                 const std::string& boards) {
  REQUIRE(gpu.size() == cpu.size());
  for (size_t k = 0; k < cpu.size(); ++k) {
    INFO("record " << cpu[k].record);
    REQUIRE(gpu[k].found == cpu[k].found);
    CHECK(gpu[k].objective == cpu[k].objective);
    CHECK(gpu[k].solutions == cpu[k].solutions);
    same_iterations(cpu[k], gpu[k]);
    CHECK(reaches_goal(read_board(boards, cpu[k].record), w, gpu[k].path));
    REQUIRE(gpu[k].ida_gpus.has_value());  // the per-GPU report
    CHECK(gpu[k].ida_gpus->ordinals.size() == 2);
    uint64_t below = 0;
    for (uint64_t e : gpu[k].ida_gpus->expanded) below += e;
    CHECK(below <= gpu[k].expanded);
    for (const auto& it : gpu[k].iterations) CHECK(it.gpu_expanded.size() == 2);
  }
}
}  // namespace

TEST_CASE("ida on two GPUs counts 8-puzzle iterations like the CPU, with tables and without",
          "[gpu][ida][gpus]") {
  const std::string boards = temp_file("ida_gpus_p8.txt", "8 6 7 2 5 4 3 0 1\n1 2 0 3 4 5 6 7 8\n"
                                                          "3 1 2 6 4 5 0 7 8\n7 2 4 5 0 6 8 3 1\n");
  SolveOptions o;
  o.load.instance_path = boards;
  o.load.params = {"w=3"};
  o.all_solutions = true;
  for (const std::string& spec : {problem("puzzle15.toml"), puzzle8_pdb_spec("ida_gpus_pdb_p8.toml")}) {
    INFO(spec);
    o.load.spec_path = spec;
    const std::vector<SolveResult> cpu = solve_all(o, "1-4", "cpu", "");
    for (const std::string& gpus : gpu_lists()) {
      INFO("--gpus " << gpus);
      // Few roots: the GPUs share deep subtrees; each balancing (donation is the default).
      o.roots = 50;
      for (const char* balance : {"", "static", "dynamic"}) {
        INFO("balance " << balance);
        o.ida_balance = balance;
        same_counts(cpu, solve_all(o, "1-4", "ida", gpus), 3, boards);
      }
      o.roots = 0;
      o.ida_balance = "";
      same_counts(cpu, solve_all(o, "1-4", "ida", gpus), 3, boards);
    }
  }
}

TEST_CASE("ida on two GPUs: Korf records with the tables, the CPU's counts and the optima", "[gpu][ida][gpus][pdb]") {
  const std::string korf = instance("15puzzle/korf100.txt");
  const std::vector<int> optimal = read_numbers(instance("15puzzle/korf100_optimal.txt"));
  REQUIRE(optimal.size() == 100);
  SolveOptions o;
  o.load.spec_path = problem("puzzle15.toml");
  o.load.instance_path = korf;
  o.all_solutions = true;
  const std::vector<SolveResult> cpu = solve_all(o, "9,12,42,79", "cpu", "");
  for (const std::string& gpus : gpu_lists()) {
    INFO("--gpus " << gpus);
    o.all_solutions = true;
    same_counts(cpu, solve_all(o, "9,12,42,79", "ida", gpus), 4, korf);
    // The first solution: a GPU's goal stops the others; the optimum all the same.
    o.all_solutions = false;
    for (const SolveResult& r : solve_all(o, "1-10", "ida", gpus)) {
      INFO("record " << r.record);
      REQUIRE(r.found);
      CHECK(r.objective == optimal[static_cast<size_t>(r.record - 1)]);
      CHECK(reaches_goal(read_board(korf, r.record), 4, r.path));
    }
  }
}

// The 24-puzzle with the Manhattan distance alone: record 3 (optimum 108) has iterations
// that grow to minutes; --time-limit stops the running one on every GPU, whose limit is
// the proven bound, within a fraction of a second of the limit.
TEST_CASE("ida on one and two GPUs: --time-limit stops a long iteration with a proven bound",
          "[gpu][ida][gpus][time_limit]") {
  SolveOptions o;
  o.load.spec_path = problem("puzzle24.toml");
  o.load.instance_path = instance("24puzzle/korf_taylor10.txt");
  o.load.instance_record = 3;
  o.load.params = {"pdb=0"};
  o.skeleton = "ida";
  o.time_limit = 1.0;
  o.cache_dir = cache_dir();
  std::vector<std::string> lists{""};
  for (const std::string& g : gpu_lists()) lists.push_back(g);
  for (const std::string& gpus : lists) {
    for (bool all : {false, true}) {
      INFO("--gpus '" << gpus << "', all solutions " << all);
      o.gpus = gpus;
      o.all_solutions = all;
      const SolveResult r = solve(o);
      REQUIRE(r.stopped);
      CHECK_FALSE(r.found);
      REQUIRE(r.proven_bound);
      REQUIRE_FALSE(r.iterations.empty());
      // Stopped inside the iteration (its limit), or, if the limit passed in the host's
      // moment between two iterations, before the next (the next limit, 2 more).
      CHECK(*r.proven_bound >= r.iterations.back().limit);
      CHECK(*r.proven_bound <= r.iterations.back().limit + 2);
      CHECK(*r.proven_bound >= r.start_h);
      CHECK(*r.proven_bound <= 108);
      // The iteration running at the limit is not waited for: at this depth each one
      // takes several times the one before, seconds by then.
      CHECK(r.t_search < o.time_limit + 1.0);
    }
  }
}

TEST_CASE("ida refuses --gpus beyond the GPUs of the host, at its place", "[gpu][ida][gpus]") {
  SolveOptions o;
  o.load.spec_path = problem("puzzle15.toml");
  o.load.instance_path = temp_file("ida_gpus_refused.txt", "1 2 5 3 4 0 6 7 8\n");
  o.load.params = {"w=3"};
  o.skeleton = "ida";
  o.gpus = "99";
  o.cache_dir = cache_dir();
  const Diagnostic d = first_user_error([&] { solve(o); });
  CHECK(d.loc.file->path == "<command line>");
  CHECK_THAT(d.message, Catch::Contains("--gpus 99: this host has"));
}
