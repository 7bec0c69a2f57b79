// An array index out of range in node code gave a wrong optimum without a word: the
// generated code clamps an index it cannot prove in range (docs/spec-language.md,
// section 13), so `due[v + 1]` read due[n-1] for the last job and `due[n]` always did.
// Under test: an index that is always out of range is a user error at its place (check
// and solve), and one that is out of range only at some nodes is reported at its place
// by `solve --check-indices` (a checked build of the cpu module), while an index out of
// range only in the untaken arm of a select is no mistake.
#include <algorithm>
#include <numeric>

#include "e2e_support.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

// Single-machine total weighted tardiness of 8 jobs, the tardiness read through `due`.
std::string weighted_tardiness_spec(const std::string& due) {
  return "[problem]\nname = \"wt\"\ngoal = \"minimize\"\nsize = \"n\"\n"  // 1-4
         "[data]\nn = \"int\"\np = \"int[n]\"\nw = \"int[n]\"\ndue = \"int[n]\"\n"  // 5-9
         "[instance]\nformat = \"layout\"\nread = [\"n\", \"p\", \"w\", \"due\"]\n"  // 10-12
         "[state]\nt = { type = \"int\", init = \"0\" }\ncost = { type = \"int\", init = \"0\" }\n"  // 13-15
         "[branch]\n"                                                                       // 16
         "place = { t = \"t + p[v]\", cost = \"cost + w[v] * max(0, t + p[v] - " + due + ")\" }\n"  // 17
         "bound = \"cost\"\nobjective = \"cost\"\n";
}

const std::vector<int> kP = {6, 3, 8, 2, 7, 4, 5, 9};
const std::vector<int> kW = {3, 5, 1, 4, 2, 6, 2, 3};
const std::vector<int> kDue = {10, 6, 30, 4, 20, 12, 25, 40};

std::string instance_text() {
  std::string s = "8\n";
  for (const auto* v : {&kP, &kW, &kDue}) {
    for (int x : *v) s += std::to_string(x) + " ";
    s += "\n";
  }
  return s;
}

// The optimum by brute force over the 8! orders, with due(j) the due date of job j.
template <class Due>
long long brute_force(Due due) {
  std::vector<int> order(8);
  std::iota(order.begin(), order.end(), 0);
  long long best = -1;
  do {
    long long t = 0, cost = 0;
    for (int j : order) {
      t += kP[j];
      cost += kW[j] * std::max<long long>(0, t - due(j));
    }
    if (best < 0 || cost < best) best = cost;
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

SolveOptions options(const std::string& due, const std::string& name) {
  SolveOptions o;
  o.load.spec_path = temp_file(name + ".toml", weighted_tardiness_spec(due));
  o.load.instance_path = temp_file("wt8.txt", instance_text());
  o.backend = "cpu";
  o.threads = 2;
  o.cache_dir = cache_dir();
  return o;
}

}  // namespace

TEST_CASE("weighted tardiness: due[v] solves to the brute-force optimum, checked or not", "[e2e][index]") {
  const long long optimum = brute_force([](int j) { return kDue[j]; });
  for (bool checked : {false, true}) {
    INFO("--check-indices " << checked);
    SolveOptions o = options("due[v]", "wt_due_v");
    o.check_indices = checked;
    SolveResult r = solve(o);
    REQUIRE(r.found);
    CHECK(r.objective == optimum);
  }
}

// Before: solved, to the optimum of due[n-1] for every job.
TEST_CASE("weighted tardiness: a constant index past the array, due[n], is an error at its place", "[e2e][index]") {
  const long long clamped = brute_force([](int) { return kDue[7]; });
  REQUIRE(clamped != brute_force([](int j) { return kDue[j]; }));  // the answer it gave was wrong
  SolveOptions o = options("due[n]", "wt_due_n");
  const Diagnostic d = first_user_error([&] { solve(o); });
  CHECK(d.loc.line == 17);
  CHECK(d.loc.col == 1 + static_cast<int>(std::string("place = { t = \"t + p[v]\", cost = \"cost + w[v] * max(0, t + p[v] - due[").size()));
  CHECK_THAT(d.message, Catch::Contains("index 8 is outside 'due', whose indices are 0..7"));
  // `check` finds it too, once the instance gives the sizes: it generates the source.
  CHECK(first_user_error([&] { generate_problem(load_spec(o.load)); }).loc.line == 17);
}

// Before: 'due[v + 1]' solved to the optimum of due[j+1] with the last job's clamped, a
// wrong optimum, and nothing said so. Unchecked it still does (the clamp is the
// language's); --check-indices reports the read at its place.
TEST_CASE("weighted tardiness: due[v + 1], out of range for the last job, is reported by --check-indices",
          "[e2e][index]") {
  const long long shifted = brute_force([](int j) { return kDue[std::min(j + 1, 7)]; });
  const long long optimum = brute_force([](int j) { return kDue[j]; });
  REQUIRE(shifted != optimum);
  SolveOptions o = options("due[v + 1]", "wt_due_v1");
  CHECK(solve(o).objective == shifted);
  o.check_indices = true;
  const Diagnostic d = first_user_error([&] { solve(o); });
  CHECK(d.loc.line == 17);
  // At the index's operator, as every error of a binary expression: the `+` of `v + 1`.
  CHECK(d.loc.col == 1 + static_cast<int>(std::string("place = { t = \"t + p[v]\", cost = \"cost + w[v] * max(0, t + p[v] - due[v ").size()));
  CHECK_THAT(d.message, Catch::Contains("index 8 is outside 'due', whose indices are 0..7"));
  CHECK_THAT(d.message, Catch::Contains("--check-indices"));
}

// The language computes both arms of a select: an index out of range in the arm not
// taken is read clamped and discarded, and is no mistake.
TEST_CASE("checked indices: an index out of range in a select's untaken arm is not reported", "[e2e][index]") {
  SolveOptions o = options("(v + 1 < n ? due[v + 1] : due[v])", "wt_guarded");
  o.check_indices = true;
  SolveResult r = solve(o);
  CHECK(r.objective == brute_force([](int j) { return kDue[std::min(j + 1, 7)]; }));
  // A set reduction's body runs for every value; values outside the set do not count.
  SolveOptions s = options("due[v] + 0 * sum(j in free & ~bit(n - 1): due[j + 1])", "wt_set");
  s.check_indices = true;
  CHECK(solve(s).objective == brute_force([](int j) { return kDue[j]; }));
}
