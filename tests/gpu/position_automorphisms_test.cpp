// [symmetry] position_automorphisms on the GPU skeletons: the narrowed tree (candidates()
// keeps the later members of the first position's orbit above its value) is the cpu
// skeleton's, counts weigh each leaf by the orbit, and the optimum is brute force's.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "gpu_support.hpp"

using namespace permjit;
using namespace permjit::test;

// A 3 x 3 grid's distances: its eight symmetries move cell 0 onto every corner.
TEST_CASE("QAP on a grid's distances: every GPU skeleton finds the optimum and explores the cpu's narrowed tree",
          "[gpu][symmetry][position_automorphisms][qap]") {
  const Matrix a = grid_distances(3, 3), b = random_matrix(9, 0, 9, 71);
  const std::string inst = temp_file("gpu_posaut_qap9.dat", qaplib_text(a, b));
  const long long best = brute_force_min(9, false, [&](const std::vector<int>& p) { return qap_cost(a, b, p); });
  for (const char* lb : {"lb=1", "lb=2"}) {
    INFO(lb);
    const Run scratch{problem("qap.toml"), inst, {lb}, {}};
    const Run at_opt{problem("qap.toml"), inst, {lb}, best};
    const SolveResult cpu = solve_with(at_opt, "cpu");
    SolveOptions no_symmetry = options_for(at_opt, "cpu");
    no_symmetry.load.ignore_symmetry = true;
    CHECK(cpu.evaluated < solve(no_symmetry).evaluated);  // the orbit is narrowed
    for (const char* sk : {"dfs", "ivm", "cdp", "rec", "offload"}) {
      INFO(sk);
      const SolveResult r = solve_with(scratch, sk);
      REQUIRE(r.found);
      CHECK(r.objective == best);
      CHECK(qap_cost(a, b, r.permutation) == r.objective);
      same_tree(cpu, solve_with(at_opt, sk), sk);
    }
  }
}

TEST_CASE("nug12 at its optimum: the grid's reflections narrow every GPU skeleton's tree as the cpu's",
          "[gpu][symmetry][position_automorphisms][qap]") {
  const Run at_opt{problem("qap.toml"), instance("qap/nug12.dat"), {}, 579};
  const SolveResult cpu = solve_with(at_opt, "cpu");
  REQUIRE(cpu.found);
  CHECK(cpu.objective == 578);
  for (const char* sk : {"dfs", "ivm", "offload"}) {
    INFO(sk);
    same_tree(cpu, solve_with(at_opt, sk), sk);
  }
}

TEST_CASE("a ring's rotations and reflections: every GPU skeleton counts the cpu's solutions on its tree",
          "[gpu][symmetry][position_automorphisms]") {
  const std::string spec = temp_file("gpu_posaut_ring.toml",
                                     "[problem]\nname = \"ring\"\ngoal = \"count\"\nsize = \"9\"\n"
                                     "[derived]\n"
                                     "ring = { type = \"int[9][9]\", index = [\"i\", \"j\"], value = \"(i - j + 9) % 9 == 1 "
                                     "|| (j - i + 9) % 9 == 1 ? 1 : 0\" }\n"
                                     "[branch]\n"
                                     "filter = \"d == 0 || (abs(v - last) > 1 && (d < 8 || abs(v - first) > 1))\"\n"
                                     "[symmetry]\n"
                                     "position_automorphisms = [\"ring\"]\n");
  long long want = 0;
  std::vector<int> p(9);
  std::iota(p.begin(), p.end(), 0);
  do {
    bool ok = true;
    for (int i = 0; i < 9; ++i) ok = ok && std::abs(p[i] - p[(i + 1) % 9]) > 1;
    want += ok;
  } while (std::next_permutation(p.begin(), p.end()));
  const Run count{spec, "", {}, {}};
  const SolveResult cpu = solve_with(count, "cpu");
  CHECK(cpu.solutions == static_cast<uint64_t>(want));
  for (const char* sk : {"dfs", "ivm", "cdp", "rec"}) {
    INFO(sk);
    same_tree(cpu, solve_with(count, sk), sk);
  }
}
