// [symmetry] position_automorphisms on the cpu skeleton (dsl/position_automorphisms.cpp,
// generator/emit_symmetry.cpp, runtime/core/symmetry_orbit.cpp): the search keeps one
// permutation of each set that the first position's orbit relates, counts each leaf for
// the orbit's size, and lists every solution once, against brute force.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <set>

#include "decision_support.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

// Permutations of 0..6 around a ring of positions, neighbours' values at least 2 apart.
// The ring's rotations and reflections (14) leave the problem the same; the first
// position's orbit is every position.
std::string ring_spec() {
  return temp_file("posaut_ring.toml",
                   "[problem]\nname = \"ring\"\ngoal = \"count\"\nsize = \"7\"\n"
                   "[derived]\n"
                   "ring = { type = \"int[7][7]\", index = [\"i\", \"j\"], value = \"(i - j + 7) % 7 == 1 || (j - i + 7) "
                   "% 7 == 1 ? 1 : 0\" }\n"
                   "[branch]\n"
                   "filter = \"d == 0 || (abs(v - last) > 1 && (d < 6 || abs(v - first) > 1))\"\n"
                   "[symmetry]\n"
                   "position_automorphisms = [\"ring\"]\n");
}

std::set<Perm> ring_solutions() {
  std::set<Perm> want;
  Perm p(7);
  std::iota(p.begin(), p.end(), 0);
  do {
    bool ok = true;
    for (int i = 0; i < 7; ++i) ok = ok && std::abs(p[i] - p[(i + 1) % 7]) > 1;
    if (ok) want.insert(p);
  } while (std::next_permutation(p.begin(), p.end()));
  return want;
}

}  // namespace

TEST_CASE("position automorphisms: a count weighs each leaf by the orbit, and a list holds every solution once",
          "[e2e][symmetry][position_automorphisms]") {
  const std::set<Perm> want = ring_solutions();
  REQUIRE(!want.empty());
  SolveOptions o = listing(ring_spec(), "cpu", "posaut_ring.txt");
  const std::string out = o.list_out;
  o.list_out.clear();  // counted first, listed below
  const SolveResult counted = solve(o);
  CHECK(counted.solutions == static_cast<uint64_t>(want.size()));
  o.load.ignore_symmetry = true;
  const SolveResult whole = solve(o);
  CHECK(whole.solutions == static_cast<uint64_t>(want.size()));
  CHECK(counted.evaluated * 5 < whole.evaluated);  // the orbit has 7 members
  o.load.ignore_symmetry = false;
  o.list = 0;
  o.list_out = out;
  const SolveResult r = solve(o);
  const std::vector<Perm> listed = read_listed(o.list_out);
  CHECK(r.solutions == static_cast<uint64_t>(want.size()));
  CHECK(listed.size() == want.size());
  CHECK(std::set<Perm>(listed.begin(), listed.end()) == want);
}

TEST_CASE("qap.toml on a grid's distances: the optimum and every optimal assignment, in either order",
          "[e2e][symmetry][position_automorphisms][qap]") {
  const Matrix a = grid_distances(2, 4);  // the reflections move cell 0 onto every corner
  for (unsigned seed : {4u, 9u}) {
    INFO("seed " << seed);
    const Matrix b = random_matrix(8, 0, 3, seed);  // small values: many optima
    const std::set<Perm> want = brute_force_optimal(8, false, [&](const Perm& p) { return qap_cost(a, b, p); });
    const std::string inst = temp_file("posaut_qap" + std::to_string(seed) + ".dat", qaplib_text(a, b));
    for (int order : {0, 1}) {
      INFO("order " << order);
      long long evaluated[2] = {0, 0};
      for (bool ignore : {false, true}) {
        SolveOptions o = listing(problem("qap.toml"), "cpu", "posaut_qap" + std::to_string(order) + ".txt");
        o.load.instance_path = inst;
        o.load.params = {"order=" + std::to_string(order)};
        o.load.ignore_symmetry = ignore;
        o.all_optimal = true;
        const SolveResult r = solve(o);
        REQUIRE(r.found);
        CHECK(r.objective == qap_cost(a, b, *want.begin()));
        CHECK(qap_cost(a, b, r.permutation) == r.objective);
        const std::vector<Perm> listed = read_listed(o.list_out);
        CHECK(listed.size() == want.size());
        CHECK(std::set<Perm>(listed.begin(), listed.end()) == want);
        evaluated[ignore] = r.evaluated;
      }
      CHECK(evaluated[0] < evaluated[1]);
    }
  }
}
