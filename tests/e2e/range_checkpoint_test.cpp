// The cpu skeleton in one process with a checkpoint (runtime/distributed/range_run.hpp): a run
// stopped after a few ranges (the PERMJIT_STOP_AFTER_RANGES hook) and resumed, perhaps
// several times, reaches the totals of a plain run; a checkpoint of another run is
// refused with its place. Runs without MPI (tests/mpi covers the ranks).
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>

#include <fstream>
#include <regex>
#include <sstream>

#include "e2e_support.hpp"
#include "runtime/ivm/ivm_checkpoint.hpp"  // checkpoint_checksum

using namespace permjit;
using namespace permjit::test;

namespace {
SolveOptions cpu(const std::string& spec, const std::string& instance = {}) {
  SolveOptions o;
  o.load.spec_path = problem(spec);
  o.load.instance_path = instance;
  o.cache_dir = cache_dir();
  o.backend = "cpu";
  o.threads = 2;
  return o;
}

// The checkpoint at `path` with the line of `key` replaced by `key value`, and its
// checksum made right again: damage that the checksum does not see.
void edit_checkpoint(const std::string& path, const std::string& key, const std::string& value) {
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  text = text.substr(0, text.rfind("checksum "));
  text = std::regex_replace(text, std::regex("(^|\n)" + key + " [^\n]*"), "$1" + key + " " + value);
  std::ofstream(path, std::ios::binary) << text << "checksum " << checkpoint_checksum(text, "") << "\n";
}

// Stops after `ranges` ranges while it is set.
struct StopAfter {
  explicit StopAfter(int ranges) { setenv("PERMJIT_STOP_AFTER_RANGES", std::to_string(ranges).c_str(), 1); }
  ~StopAfter() { unsetenv("PERMJIT_STOP_AFTER_RANGES"); }
};
}  // namespace

TEST_CASE("a cpu run stopped and resumed from its checkpoint has a plain run's totals", "[e2e][ranges]") {
  const std::string ck = own_scratch_dir() + "/range_checkpoint_e2e.ckpt";
  std::remove(ck.c_str());
  SolveOptions plain = cpu("nqueens.toml");
  plain.load.params = {"n=11"};
  const SolveResult want = solve(plain);

  SolveOptions o = plain;
  o.checkpoint = ck;
  {
    StopAfter hook(2);
    SolveResult first = solve(o);
    CHECK(first.stopped);
    CHECK(first.ranges == 2);
    o.resume = ck;
    SolveResult second = solve(o);  // stopped again, from the checkpoint
    CHECK(second.stopped);
    CHECK(second.resumed_subtrees > 0);
  }
  SolveResult last = solve(o);
  CHECK_FALSE(last.stopped);
  CHECK(last.solutions == want.solutions);
  CHECK(last.expanded == want.expanded);
  CHECK(last.evaluated == want.evaluated);

  // Another instance of the spec is another frontier: refused, on --resume.
  SolveOptions other = plain;
  other.load.params = {"n=10"};
  other.resume = ck;
  CHECK_THROWS_WITH(solve(other), Catch::Contains("--resume") && Catch::Contains("generated code differs"));
  std::remove(ck.c_str());
}

TEST_CASE("an optimisation stopped and resumed finds the optimum, and --ub totals match", "[e2e][ranges]") {
  const std::string ck = own_scratch_dir() + "/range_checkpoint_e2e_atsp.ckpt";
  std::remove(ck.c_str());
  const std::string inst = temp_file("ranges_r10.atsp", tsplib_text(random_matrix(10, 1, 100, 16)));
  SolveOptions plain = cpu("atsp.toml", inst);
  const SolveResult best = solve(plain);
  REQUIRE(best.found);
  plain.ub = best.objective;
  const SolveResult want = solve(plain);

  SolveOptions o = cpu("atsp.toml", inst);
  o.checkpoint = ck;
  {
    StopAfter hook(1);
    const SolveResult part = solve(o);
    CHECK(part.stopped);
    // Its proven bound counts every subtree of the ranges not finished: between the
    // root's bound and the optimum (docs/reliability.md, "Partial answers").
    REQUIRE(part.proven_bound);
    REQUIRE(part.root_bound);
    CHECK(*part.proven_bound <= best.objective);
    CHECK(*part.proven_bound >= *part.root_bound);
  }
  o.resume = ck;
  CHECK(solve(o).objective == best.objective);

  std::remove(ck.c_str());
  o = plain;
  o.resume.clear();
  o.checkpoint = ck;
  {
    StopAfter hook(3);
    solve(o);
  }
  o.resume = ck;
  const SolveResult last = solve(o);
  CHECK(last.expanded == want.expanded);
  CHECK(last.evaluated == want.evaluated);
  std::remove(ck.c_str());
}

// Before: a frontier that its run does not rebuild was an internal error ("this is a bug
// in permjit"), and an incumbent that is not a number ended in "error: stoll".
TEST_CASE("a cpu checkpoint summed right but inconsistent is a user error at --resume", "[e2e][ranges]") {
  const std::string ck = own_scratch_dir() + "/range_checkpoint_inconsistent.ckpt";
  SolveOptions o = cpu("atsp.toml", instance("atsp/br17.atsp"));
  o.checkpoint = ck;
  {
    StopAfter hook(1);
    REQUIRE(solve(o).stopped);
  }
  std::ifstream in(ck, std::ios::binary);
  const std::string saved((std::istreambuf_iterator<char>(in)), {});
  o.resume = ck;
  struct Damage {
    std::string key, value, says;
  };
  for (const Damage& d : {Damage{"frontier_nodes", "999999", "is not the one its run builds"},
                          Damage{"split_depth", "1", "is not the one its run builds"},
                          Damage{"ub", "twelve", "'ub' is not a number"},
                          Damage{"perm", "0 1 x", "'perm' is not a list of values"}}) {
    INFO(d.key << " " << d.value);
    std::ofstream(ck, std::ios::binary) << saved;
    edit_checkpoint(ck, d.key, d.value);
    check_command_line_error([&] { solve(o); }, 10, "damaged checkpoint: ");
    check_command_line_error([&] { solve(o); }, 10, d.says);
  }
  // A best leaf that is no permutation of the spec's values.
  std::ofstream(ck, std::ios::binary) << saved;
  edit_checkpoint(ck, "found", "1");
  edit_checkpoint(ck, "best", "39");
  edit_checkpoint(ck, "perm", "0 0 1");
  check_command_line_error([&] { solve(o); }, 10, "its best leaf is not a permutation of 0..16");
}
