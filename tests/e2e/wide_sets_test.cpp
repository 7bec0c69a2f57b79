// Sizes 65 to 128: a set of values is one 128-bit word (generator/emit_layout.cpp), on
// the host as on the device. Answers that share no code with permjit: Johnson's rule for
// two machines, and a tour whose arcs each cost less than any other arc.
#include <algorithm>
#include <numeric>

#include <catch2/catch.hpp>

#include "dsl/load_spec.hpp"
#include "flowshop_support.hpp"
#include "generator/generate.hpp"
#include "runtime/compile/offload_module.hpp"
#include "runtime/solve.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

// Johnson's rule: the jobs faster on the first machine by increasing first time, then the
// others by decreasing second time. Optimal for two machines.
long long johnson_makespan(const FlowshopInstance& f) {
  std::vector<int> first, second;
  for (int j = 0; j < f.jobs; ++j) (f.p[0][j] < f.p[1][j] ? first : second).push_back(j);
  std::sort(first.begin(), first.end(), [&](int a, int b) { return f.p[0][a] < f.p[0][b]; });
  std::sort(second.begin(), second.end(), [&](int a, int b) { return f.p[1][a] > f.p[1][b]; });
  first.insert(first.end(), second.begin(), second.end());
  return makespan(f, first);
}

// Arc i -> i+1 (mod n) costs 1, every other arc 2..99: the tour 0, 1, ..., n-1 is the
// only one of cost n.
Matrix unit_tour(int n) {
  Matrix d = random_matrix(n, 2, 99, 17u + static_cast<unsigned>(n));
  for (int i = 0; i < n; ++i) d[i][(i + 1) % n] = 1;
  return d;
}

std::vector<int> identity(int n) {
  std::vector<int> p(static_cast<size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  return p;
}

}  // namespace

TEST_CASE("sizes above 64: two-machine flowshops get Johnson's makespan, forward and at both ends") {
  for (int jobs : {65, 128}) {
    const FlowshopInstance f = random_flowshop(jobs, 2, 5u + static_cast<unsigned>(jobs));
    const std::string inst = temp_file("johnson" + std::to_string(jobs) + ".txt", taillard_text(f));
    for (const char* branching : {"branching=1", "branching=2"}) {
      INFO(jobs << " jobs, " << branching);
      const SolveResult r = run(problem("flowshop.toml"), inst, {branching});
      REQUIRE(r.found);
      CHECK(r.objective == johnson_makespan(f));
      REQUIRE(r.permutation.size() == static_cast<size_t>(jobs));
      CHECK(makespan(f, r.permutation) == r.objective);
    }
  }
}

TEST_CASE("sizes above 64: the ATSP's bounds find the one tour of unit arcs, on the cpu and offload's host side") {
  const int n = 70;
  const Matrix d = unit_tour(n);
  const std::string inst = temp_file("unit_tour70.atsp", tsplib_text(d));
  for (const char* lb : {"lb=1", "lb=5", "lb=9"}) {
    INFO(lb);
    const SolveResult r = run(problem("atsp.toml"), inst, {lb});
    REQUIRE(r.found);
    CHECK(r.objective == n);
    CHECK(r.permutation == identity(n));
  }
  // offload's pool and its children as the device computes them, run on the host, from
  // an incumbent one above the optimum (without one its pool would fill before a leaf).
  const ProblemSpec spec = load(problem("atsp.toml"), inst, {"lb=9"});
  OffloadModule m(units_of("offload", spec, generate_problem(spec)).host.value(), ModuleCache(cache_dir()));
  OffloadOptions o;
  o.ub = n + 1;
  HostOffloadDevice dev(m, o.slots());
  const OffloadOutcome out = m.search(o, dev.device());
  CHECK(out.device_rc == 0);
  REQUIRE(out.result.found);
  CHECK(out.result.best == n);
  CHECK(std::vector<int>(out.result.perm, out.result.perm + n) == identity(n));
}

// The same specs with every set in a 128-bit word (LoadOptions::wide_sets): the narrow
// words' trees node for node, at sizes where the narrow code is checked by brute force.
TEST_CASE("128-bit sets at small sizes search the narrow words' trees") {
  const std::string atsp = temp_file("wide_atsp9.atsp", tsplib_text(random_matrix(9, 1, 60, 4)));
  const std::string qap = temp_file("wide_qap8.dat", qaplib_text(random_matrix(8, 0, 9, 5), random_matrix(8, 0, 9, 6)));
  const std::string flow = temp_file("wide_flow9.txt", taillard_text(random_flowshop(9, 4, 7u)));
  struct Case {
    std::string spec, instance;
    std::vector<std::string> params;
  };
  const Case cases[] = {{problem("nqueens.toml"), "", {"n=9"}},
                        {problem("atsp.toml"), atsp, {"lb=9"}},
                        {problem("qap.toml"), qap, {"lb=2"}},
                        {problem("flowshop.toml"), flow, {"branching=2"}}};
  for (const Case& c : cases) {
    INFO(c.spec << " " << c.params.front());
    auto solve_with = [&](bool wide, std::optional<long long> ub) {
      SolveOptions o;
      o.load.spec_path = c.spec;
      o.load.instance_path = c.instance;
      o.load.params = c.params;
      o.load.ignore_symmetry = true;  // [symmetry] keeps its tables in 64 bits
      o.load.wide_sets = wide;
      o.backend = "cpu";
      o.skeleton = "cpu";
      o.threads = 1;
      o.ub = ub;
      o.cache_dir = cache_dir();
      return solve(o);
    };
    const SolveResult narrow = solve_with(false, {}), wide = solve_with(true, {});
    CHECK(wide.solutions == narrow.solutions);
    CHECK(wide.objective == narrow.objective);
    CHECK(wide.evaluated == narrow.evaluated);
    if (narrow.found) {  // at the optimum the tree does not depend on when it was found
      const SolveResult narrow_at = solve_with(false, narrow.objective), wide_at = solve_with(true, narrow.objective);
      CHECK(wide_at.expanded == narrow_at.expanded);
      CHECK(wide_at.evaluated == narrow_at.evaluated);
    }
  }
}

TEST_CASE("sizes above 64: what keeps a set in 64 bits is refused at its place") {
  SECTION("a value symmetry") {
    const std::string spec = temp_file("mirror70.toml", R"([problem]
name = "mirror"
goal = "count"
size = 70
[branch]
place = ""
[symmetry]
value = "69 - v"
)");
    const Diagnostic e = first_user_error([&] { load(spec, "", {}); });
    CHECK(e.loc.line == 8);
    CHECK_THAT(e.message, Catch::Contains("symmetry.value takes sizes up to 64; this size is 70"));
  }
  SECTION("a set in [derived]") {
    const std::string spec = temp_file("derived_set70.toml", R"toml([problem]
name = "d"
goal = "count"
size = 70
[derived]
k = { type = "int", value = "popcount(bit(3) | bit(5))" }
[branch]
place = ""
)toml");;
    const Diagnostic e = first_user_error([&] { load(spec, "", {}); });
    CHECK(e.loc.line == 6);
    CHECK(e.loc.col == 46);  // the '|' of the set
    CHECK_THAT(e.message, Catch::Contains("a set in [derived] holds the values 0..63; this size is 70"));
  }
  SECTION("position automorphisms") {
    const std::string spec = temp_file("automorphisms70.toml", R"toml([problem]
name = "a"
goal = "count"
size = 70
[derived]
t = { type = "int[70][70]", index = ["i", "j"], value = "i == j ? 0 : 1" }
[branch]
place = ""
[symmetry]
position_automorphisms = ["t"]
)toml");;
    const Diagnostic e = first_user_error([&] { load(spec, "", {}); });
    CHECK(e.loc.line == 10);
    CHECK_THAT(e.message, Catch::Contains("symmetry.position_automorphisms takes sizes up to 64; this size is 70"));
  }
  SECTION("ivm above 64 levels") {
    const FlowshopInstance f = random_flowshop(70, 2, 3u);
    const ProblemSpec spec =
        load(problem("flowshop.toml"), temp_file("levels70.txt", taillard_text(f)), {"branching=1"});
    const Diagnostic e = first_user_error([&] { units_of("ivm", spec, generate_problem(spec)); });
    CHECK(e.loc.line == spec.size_expr->loc.line);
    CHECK_THAT(e.message, Catch::Contains("the ivm skeleton takes up to 64 levels below the fixed prefix; this search has 70"));
  }
}
