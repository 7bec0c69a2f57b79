// Under test: dsl/load_search.cpp and runtime/skeletons.cpp's preferred_gpu_skeleton:
// [search] gpu_skeleton is read with its `when` evaluated from the parameters; a name
// the registry does not know as a GPU skeleton for the spec is refused at its place.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "runtime/skeletons.hpp"
#include "unit_helpers.hpp"

using namespace permjit;
using namespace permjit::unit;

namespace {

// A count of size n; [search] starts on line 9, gpu_skeleton's value on line 10.
std::string count_spec(const std::string& search_body) {
  return "[problem]\n"                                            // 1
         "name = \"t\"\n"                                         // 2
         "goal = \"count\"\n"                                     // 3
         "size = \"n\"\n"                                         // 4
         "[params]\n"                                             // 5
         "n = { type = \"int\", default = 6, range = [1, 10] }\n"  // 6
         "[branch]\n"                                             // 7
         "\n"                                                     // 8
         "[search]\n" +                                           // 9
         search_body;                                             // 10...
}

ProblemSpec load_with(const std::string& toml, std::vector<std::string> params = {}, std::string instance = {}) {
  TempFile f("search.toml", toml);
  LoadOptions o;
  o.spec_path = f.path();
  o.params = std::move(params);
  o.instance_path = std::move(instance);
  return load_ok(o);
}

// preferred_gpu_skeleton's refusal: its one located error.
Diagnostic refusal(const ProblemSpec& spec) {
  try {
    preferred_gpu_skeleton(spec);
  } catch (const UserErrors& e) {
    REQUIRE(e.diags.all().size() == 1);
    return e.diags.all()[0];
  }
  FAIL("preferred_gpu_skeleton accepted a skeleton it should refuse");
  return {};
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("search.gpu_skeleton applies where its `when` holds for the parameters", "[load_spec][search]") {
  const std::string toml = count_spec("gpu_skeleton = { name = \"cdp\", when = \"n >= 6\" }\n");
  const ProblemSpec on = load_with(toml);
  REQUIRE(on.gpu_skeleton);
  CHECK(on.gpu_skeleton->name == "cdp");
  CHECK(on.gpu_skeleton->applies);
  CHECK(on.gpu_skeleton->loc.line == 10);
  const Skeleton* s = preferred_gpu_skeleton(on);
  REQUIRE(s);
  CHECK(std::string(s->name) == "cdp");

  const ProblemSpec off = load_with(toml, {"n=5"});
  REQUIRE(off.gpu_skeleton);
  CHECK(!off.gpu_skeleton->applies);
  CHECK(preferred_gpu_skeleton(off) == nullptr);  // the GPU's default then
}

TEST_CASE("search.gpu_skeleton as a bare name always applies; no [search], no preference", "[load_spec][search]") {
  const ProblemSpec s = load_with(count_spec("gpu_skeleton = \"dfs\"\n"));
  const Skeleton* k = preferred_gpu_skeleton(s);
  REQUIRE(k);
  CHECK(std::string(k->name) == "dfs");
  const ProblemSpec none = load_with(count_spec(""));
  CHECK(!none.gpu_skeleton);
  CHECK(preferred_gpu_skeleton(none) == nullptr);
}

TEST_CASE("search.gpu_skeleton refuses names that are not GPU skeletons for the spec, at the name",
          "[load_spec][search][errors]") {
  // Judged whether or not `when` holds, and whether or not a GPU is present.
  const Diagnostic unknown = refusal(load_with(count_spec("gpu_skeleton = { name = \"fast\", when = \"n > 7\" }\n")));
  check_at(unknown, 10, 25, "'fast', which is not a GPU skeleton of this build");
  CHECK(unknown.hint.find("ivm") != std::string::npos);

  const Diagnostic cpu = refusal(load_with(count_spec("gpu_skeleton = \"cpu\"\n")));
  check_at(cpu, 10, 16, "'cpu', which is not a GPU skeleton");

  const Diagnostic bounds = refusal(load_with(count_spec("gpu_skeleton = \"offload\"\n")));
  check_at(bounds, 10, 16, "'offload', which bounds nodes; 't' is a count problem, with no bound");
  CHECK(bounds.hint == "GPU skeletons for this spec: dfs, ivm, cdp, rec");

  const Diagnostic path = refusal(load_with(count_spec("gpu_skeleton = \"ida\"\n")));
  check_at(path, 10, 16, "'ida', which searches path problems; 't' is a count problem");
  CHECK(path.hint.find("ida") == std::string::npos);  // the hint lists the ones that fit
}

TEST_CASE("search.gpu_skeleton refuses a skeleton of one end where the spec places at two",
          "[load_spec][search][errors]") {
  // flowshop.toml: branch.ends = "branching", 2 by default.
  const std::string flowshop = read_file(std::string(PERMJIT_SOURCE_DIR) + "/problems/flowshop.toml");
  REQUIRE(!flowshop.empty());
  const std::string ta001 = std::string(PERMJIT_INSTANCES_DIR) + "/flowshop/ta001.txt";
  const std::string toml = flowshop + "\n[search]\ngpu_skeleton = \"offload\"\n";
  const Diagnostic two = refusal(load_with(toml, {}, ta001));
  CHECK(two.message.find("places values from the left only") != std::string::npos);
  CHECK(two.hint.find("branching == 1") != std::string::npos);
  // Forward branching: offload applies.
  const Skeleton* k = preferred_gpu_skeleton(load_with(toml, {"branching=1"}, ta001));
  REQUIRE(k);
  CHECK(std::string(k->name) == "offload");
  // A `when` that excludes two ends is accepted with the defaults too.
  const std::string guarded = flowshop + "\n[search]\ngpu_skeleton = { name = \"offload\", when = \"branching == 1\" }\n";
  CHECK(preferred_gpu_skeleton(load_with(guarded, {}, ta001)) == nullptr);
}

TEST_CASE("search.gpu_skeleton's `when` is a bool of the parameters", "[load_spec][search][errors]") {
  auto d = spec_errors(count_spec("gpu_skeleton = { name = \"dfs\", when = \"n + 1\" }\n"));
  REQUIRE(!d.all().empty());
  CHECK(d.all()[0].loc.line == 10);
  CHECK(d.all()[0].message.find("bool") != std::string::npos);

  d = spec_errors(count_spec("gpu_skeleton = { name = \"dfs\", when = \"d > 0\" }\n"));
  REQUIRE(!d.all().empty());
  CHECK(d.all()[0].loc.line == 10);
}

TEST_CASE("[search] refuses unknown keys and values of the wrong shape, at their place", "[load_spec][search][errors]") {
  auto d = spec_errors(count_spec("gpu_skeleton = \"dfs\"\nskeleton = \"ivm\"\n"));
  REQUIRE(d.all().size() == 1);
  CHECK(d.all()[0].loc.line == 11);
  CHECK(d.all()[0].message.find("skeleton") != std::string::npos);

  d = spec_errors(count_spec("gpu_skeleton = { name = \"dfs\", if = \"n > 1\" }\n"));
  REQUIRE(d.all().size() == 1);
  CHECK(d.all()[0].loc.line == 10);

  d = spec_errors(count_spec("gpu_skeleton = 3\n"));
  REQUIRE(d.all().size() == 1);
  check_at(d.all()[0], 10, 16, "a skeleton's name or a table { name, when }");

  d = spec_errors(count_spec("gpu_skeleton = { when = \"n > 1\" }\n"));
  REQUIRE(d.all().size() == 1);
  check_at(d.all()[0], 10, 16, "needs a name");
}
