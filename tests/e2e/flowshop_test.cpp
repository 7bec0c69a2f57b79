// Flowshop (problems/flowshop.toml, LB1 and LB2 written in the spec) on the CPU
// backend, with forward branching and with jobs placed at both ends (branching=2):
// optima equal brute force on random instances, Taillard 20x5 optima from scratch, and
// with --ub at the optimum the proof explores the same tree for any thread count and
// split depth.
#include <catch2/catch.hpp>

#include "flowshop_support.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

std::string taillard(const std::string& name) { return instance("flowshop/" + name + ".txt"); }

// From scratch: the optimum, and a permutation whose makespan is the optimum.
void solves_to_optimum(const std::string& name, const std::vector<std::string>& params) {
  long long opt = taillard_optimum(name);
  REQUIRE(opt > 0);
  SolveResult r = run(problem("flowshop.toml"), taillard(name), params);
  INFO(name << " " << params.back());
  REQUIRE(r.found);
  CHECK(r.objective == opt);
  CHECK(makespan(read_taillard(taillard(name)), r.permutation) == opt);
}

// --ub at the optimum: nothing better; the same counts for every threads/split.
void proof_counts_agree(const std::string& name, const std::vector<std::string>& params) {
  long long opt = taillard_optimum(name);
  REQUIRE(opt > 0);
  SolveResult one = run(problem("flowshop.toml"), taillard(name), params, 1, opt);
  CHECK_FALSE(one.found);
  for (auto [threads, split] : {std::pair{2, 0}, std::pair{2, 1}, std::pair{2, 3}}) {
    SolveResult r = run(problem("flowshop.toml"), taillard(name), params, threads, opt, split);
    INFO(name << " " << params.back() << ", threads " << threads << ", split " << split);
    CHECK_FALSE(r.found);
    CHECK(r.expanded == one.expanded);
    CHECK(r.evaluated == one.evaluated);
  }
}

// The public GPU offload code's forward search at a fixed UB (docs/flowshop-counts.md),
// written here from its description: LB2 alone over all machine pairs, the tail after
// machine k the least over all jobs (all_jobs_tails) or over the free jobs, a child kept
// when its bound is below ub. `tree` counts the kept children that are not leaves (the
// root is not counted), `evaluated` every child.
struct PublicCounts {
  uint64_t tree = 0, evaluated = 0;
};

PublicCounts public_forward_counts(const FlowshopInstance& f, long long ub, bool all_jobs_tails) {
  const int n = f.jobs, m = f.machines;
  std::vector<std::vector<long long>> tail(m, std::vector<long long>(n, 0));
  for (int k = 0; k < m; ++k)
    for (int j = 0; j < n; ++j)
      for (int l = k + 1; l < m; ++l) tail[k][j] += f.p[l][j];
  struct Pair {
    int a, b;
    std::vector<int> order;
    std::vector<long long> lag;
  };
  std::vector<Pair> pairs;
  for (int a = 0; a < m; ++a)
    for (int b = a + 1; b < m; ++b) {
      Pair q{a, b, {}, std::vector<long long>(n, 0)};
      for (int j = 0; j < n; ++j)
        for (int l = a + 1; l < b; ++l) q.lag[j] += f.p[l][j];
      for (int j = 0; j < n; ++j) q.order.push_back(j);
      auto ta = [&](int j) { return f.p[a][j] + q.lag[j]; };
      auto tb = [&](int j) { return f.p[b][j] + q.lag[j]; };
      std::stable_sort(q.order.begin(), q.order.end(), [&](int x, int y) {
        bool fx = ta(x) < tb(x), fy = ta(y) < tb(y);
        if (fx != fy) return fx;
        return fx ? ta(x) < ta(y) : tb(x) > tb(y);
      });
      pairs.push_back(std::move(q));
    }
  auto bound = [&](const std::vector<long long>& front, const std::vector<bool>& free) {
    std::vector<long long> t(m, 0);
    for (int k = 0; k < m; ++k) {
      long long least = -1;
      for (int j = 0; j < n; ++j)
        if (all_jobs_tails || free[j]) least = least < 0 ? tail[k][j] : std::min(least, tail[k][j]);
      t[k] = std::max(least, 0LL);
    }
    long long lb = 0;
    for (const Pair& q : pairs) {
      long long on_a = front[q.a], on_b = front[q.b];
      for (int j : q.order)
        if (free[j]) {
          on_a += f.p[q.a][j];
          on_b = std::max(on_b, on_a + q.lag[j]) + f.p[q.b][j];
        }
      lb = std::max({lb, on_a + t[q.a], on_b + t[q.b]});
    }
    return lb;
  };
  PublicCounts c;
  std::vector<bool> free(n, true);
  auto dfs = [&](auto&& self, const std::vector<long long>& front, int depth) -> void {
    for (int j = 0; j < n; ++j) {
      if (!free[j]) continue;
      std::vector<long long> child(front);
      for (int k = 0; k < m; ++k) child[k] = std::max(child[k], k ? child[k - 1] : 0) + f.p[k][j];
      ++c.evaluated;
      if (depth + 1 == n) continue;  // a leaf: a solution, not a tree node
      free[j] = false;
      if (bound(child, free) < ub) {
        ++c.tree;
        self(self, child, depth + 1);
      }
      free[j] = true;
    }
  };
  dfs(dfs, std::vector<long long>(m, 0), 0);
  return c;
}

}  // namespace

// tails=2 is the public offload code's bound: the same tree, counted there without the
// root (its "size of the explored tree" is expanded - 1). tails=1, the default, is the
// same search with the tails taken over the free jobs.
TEST_CASE("flowshop tails=2 explores the public offload code's tree", "[e2e][flowshop][counts]") {
  for (auto [jobs, machines, seed] : {std::tuple{8, 4, 2u}, std::tuple{9, 6, 5u}, std::tuple{9, 3, 7u}}) {
    FlowshopInstance f = random_flowshop(jobs, machines, seed);
    std::string inst = temp_file("flowshop_public" + std::to_string(seed) + ".txt", taillard_text(f));
    long long best = brute_force_min(jobs, false, [&](const std::vector<int>& order) { return makespan(f, order); });
    for (long long ub : {best, best - 3}) {  // nothing better is found: the tree is fixed
      for (int tails : {1, 2}) {
        PublicCounts want = public_forward_counts(f, ub, tails == 2);
        SolveResult r = run(problem("flowshop.toml"), inst, {"branching=1", "lb=2", "tails=" + std::to_string(tails)}, 2, ub);
        INFO(jobs << "x" << machines << " ub " << ub << " tails=" << tails);
        CHECK(r.expanded - 1 == want.tree);
        CHECK(r.evaluated == want.evaluated);
      }
    }
  }
  // Taillard 20x5 at the optimum: the figures of docs/flowshop-counts.md.
  struct Case {
    const char* name;
    uint64_t tree1, evaluated1, tree2, evaluated2;
  };
  for (Case c : {Case{"ta003", 80054, 551013, 80062, 551107}, Case{"ta004", 33281, 272208, 33283, 272240}}) {
    long long opt = taillard_optimum(c.name);
    SolveResult free_tails = run(problem("flowshop.toml"), taillard(c.name), {"branching=1", "lb=2"}, 2, opt);
    SolveResult all_tails = run(problem("flowshop.toml"), taillard(c.name), {"branching=1", "lb=2", "tails=2"}, 2, opt);
    INFO(c.name);
    CHECK(free_tails.expanded - 1 == c.tree1);
    CHECK(free_tails.evaluated == c.evaluated1);
    CHECK(all_tails.expanded - 1 == c.tree2);
    CHECK(all_tails.evaluated == c.evaluated2);
  }
}

TEST_CASE("flowshop optimum equals brute force, with LB1 and with LB2", "[e2e][flowshop]") {
  for (auto [jobs, machines, seed] : {std::tuple{7, 3, 1u}, std::tuple{8, 4, 2u}, std::tuple{8, 6, 3u}}) {
    FlowshopInstance f = random_flowshop(jobs, machines, seed);
    std::string inst = temp_file("flowshop" + std::to_string(seed) + ".txt", taillard_text(f));
    long long best = brute_force_min(jobs, false, [&](const std::vector<int>& order) { return makespan(f, order); });
    for (const char* branching : {"branching=1", "branching=2"}) {
      for (const char* lb : {"lb=1", "lb=2"}) {
        SolveResult r = run(problem("flowshop.toml"), inst, {lb, branching});
        INFO(jobs << "x" << machines << " " << lb << " " << branching);
        REQUIRE(r.found);
        CHECK(r.objective == best);
        CHECK(makespan(f, r.permutation) == best);
        SolveResult at_opt = run(problem("flowshop.toml"), inst, {lb, branching}, 2, best);
        CHECK_FALSE(at_opt.found);
        // --ub one above: an optimal schedule, whichever end its jobs were placed at.
        SolveResult above = run(problem("flowshop.toml"), inst, {lb, branching}, 2, best + 1);
        REQUIRE(above.found);
        CHECK(makespan(f, above.permutation) == best);
      }
      // LB2 is max(LB1, LB2): never more nodes than LB1 alone at the optimum.
      SolveResult lb1 = run(problem("flowshop.toml"), inst, {"lb=1", branching}, 1, best);
      SolveResult lb2 = run(problem("flowshop.toml"), inst, {"lb=2", branching}, 1, best);
      CHECK(lb2.evaluated <= lb1.evaluated);
    }
  }
}

// The refinement (lb = 3, and the default with two ends) reads the Johnson jobs and their
// times packed in bit fields as wide as the longest processing time (problems/flowshop.toml,
// `packed`); with times past 2^13 the packed values pass 32 bits. Forward, lb = 3 prunes
// exactly as lb = 2, which reads the same tables unpacked.
TEST_CASE("flowshop's packed refinement: brute force's optimum, and lb=2's tree forward", "[e2e][flowshop]") {
  for (auto [jobs, machines, seed, hi] : {std::tuple{7, 4, 11u, 99}, std::tuple{7, 5, 12u, 60000},
                                          std::tuple{8, 3, 13u, 5000}}) {
    FlowshopInstance f = random_flowshop(jobs, machines, seed, hi);
    std::string inst = temp_file("flowshop_packed" + std::to_string(seed) + ".txt", taillard_text(f));
    long long best = brute_force_min(jobs, false, [&](const std::vector<int>& order) { return makespan(f, order); });
    INFO(jobs << "x" << machines << ", times up to " << hi);
    for (std::vector<std::string> params : {std::vector<std::string>{}, {"lb=3", "branching=1"}}) {
      SolveResult r = run(problem("flowshop.toml"), inst, params);
      REQUIRE(r.found);
      CHECK(r.objective == best);
      CHECK(makespan(f, r.permutation) == best);
    }
    SolveResult lb2 = run(problem("flowshop.toml"), inst, {"lb=2", "branching=1"}, 1, best);
    SolveResult lb3 = run(problem("flowshop.toml"), inst, {"lb=3", "branching=1"}, 1, best);
    CHECK(lb3.expanded == lb2.expanded);
    CHECK(lb3.evaluated == lb2.evaluated);
  }
}

// The instances that a 2-core machine solves from scratch in seconds with forward
// branching (ta001, ta005, ta006, ta008 and ta010 take minutes; see the [slow] case).
TEST_CASE("Taillard ta002, ta007 from scratch reach their optima", "[e2e][flowshop]") {
  for (const char* name : {"ta002", "ta007"}) solves_to_optimum(name, {"branching=1", "lb=2"});
}

// Jobs at both ends, the end chosen per node: every 20x5 instance in well under a second.
TEST_CASE("Taillard ta001-ta010 from scratch with jobs placed at both ends", "[e2e][flowshop]") {
  for (const char* name : {"ta001", "ta002", "ta003", "ta004", "ta005", "ta006", "ta007", "ta008", "ta009", "ta010"})
    solves_to_optimum(name, {"lb=2", "branching=2"});
}

TEST_CASE("Taillard 20x5 proofs at the optimum: counts agree across threads and splits", "[e2e][flowshop][counts]") {
  for (const char* name : {"ta001", "ta002", "ta003", "ta004", "ta007", "ta009"}) proof_counts_agree(name, {"branching=1", "lb=2"});
  for (const char* name : {"ta001", "ta005", "ta006"}) proof_counts_agree(name, {"lb=2", "branching=2"});
}

// Minutes on two cores; run with: permjit_e2e_tests "[slow]"
TEST_CASE("Taillard ta001-ta010 from scratch and every proof", "[.][e2e][flowshop][slow]") {
  for (const char* name : {"ta001", "ta002", "ta003", "ta004", "ta005", "ta006", "ta007", "ta008", "ta009", "ta010"})
    solves_to_optimum(name, {"branching=1", "lb=2"});
  for (const char* name : {"ta005", "ta006", "ta008", "ta010"}) proof_counts_agree(name, {"branching=1", "lb=2"});
}

// --time-limit on a search that needs minutes (ta001 forward from scratch): it stops,
// says so, and reports what it did: a feasible schedule and the nodes it searched. A
// search that ends first is complete.
TEST_CASE("a time limit stops the cpu search and marks the result partial", "[e2e][flowshop][time_limit]") {
  SolveOptions o;
  o.load.spec_path = problem("flowshop.toml");
  o.load.instance_path = taillard("ta001");
  o.backend = "cpu";
  o.threads = 2;
  o.time_limit = 1;
  o.load.params = {"branching=1"};
  o.cache_dir = cache_dir();
  SolveResult r = solve(o);
  CHECK(r.stopped);
  CHECK(r.evaluated > 0);
  REQUIRE(r.found);
  CHECK(r.objective >= taillard_optimum("ta001"));
  CHECK(makespan(read_taillard(taillard("ta001")), r.permutation) == r.objective);
  CHECK_THAT(format_json(r), Catch::Contains("\"complete\":false"));
  o.load.params = {"branching=2"};
  o.time_limit = 600;
  SolveResult done = solve(o);
  CHECK_FALSE(done.stopped);
  CHECK(done.objective == taillard_optimum("ta001"));
}
