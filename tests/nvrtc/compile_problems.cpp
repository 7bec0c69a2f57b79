// Every problem in problems/ generates a source that NVRTC compiles, for sm_90, to PTX
// and to a cubin, with every GPU skeleton's kernels (dfs; offload for optimisation
// problems) and with the probe kernel
// (templates/probe.cuh). Needs no GPU.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "dsl/load_spec.hpp"
#include "generator/generate.hpp"
#include "runtime/nvrtc_compile.hpp"
#include "runtime/skeletons.hpp"
#include "runtime/unit.hpp"
#include "test_paths.hpp"

using namespace permjit;

namespace {

// An instance for each problem that reads one.
std::string instance_for(const std::string& problem) {
  if (problem == "atsp.toml") return test::instance("atsp/br17.atsp");
  if (problem == "qap.toml") return test::instance("qap/nug12.dat");
  if (problem == "flowshop.toml") return test::instance("flowshop/ta021.txt");
  return "";
}

}  // namespace

TEST_CASE("every problem compiles with NVRTC for sm_90, with the dfs, offload and probe kernels", "[nvrtc]") {
  std::vector<std::string> problems;
  for (const auto& e : std::filesystem::directory_iterator(test::source_dir() + "/problems"))
    if (e.path().extension() == ".toml") problems.push_back(e.path().filename().string());
  std::sort(problems.begin(), problems.end());
  REQUIRE(problems.size() >= 4);
  for (const auto& name : problems) {
    DYNAMIC_SECTION(name) {
      LoadOptions o;
      o.spec_path = test::problem(name);
      o.instance_path = instance_for(name);
      ProblemSpec spec = load_spec(o);
      ProblemSource src = generate_problem(spec);
      NvrtcOutput out = nvrtc_compile(assemble_unit(src, {"probe.cuh"}), name + ".cu", "sm_90", true);
      INFO(out.log);
      REQUIRE(out.ok);
      CHECK(out.ptx.find(".target sm_90") != std::string::npos);
      CHECK(out.ptx.find(".entry pj_probe") != std::string::npos);
      CHECK(out.cubin.size() > 0);
      NvrtcOutput dfs = nvrtc_compile(assemble_unit(src, gpu_dfs_templates()), name + ".dfs.cu", "sm_90", true,
                                      {"-DPJ_BLOCK=128"});
      INFO(dfs.log);
      REQUIRE(dfs.ok);
      CHECK(dfs.ptx.find(".entry pj_dfs") != std::string::npos);
      CHECK(dfs.cubin.size() > 0);
      if (spec.goal != Goal::count) {  // the offload skeleton bounds: optimisation only
        NvrtcOutput offload = nvrtc_compile(assemble_unit(src, gpu_offload_templates()), name + ".offload.cu", "sm_90",
                                            true, {"-DPJ_BLOCK=128"});
        INFO(offload.log);
        REQUIRE(offload.ok);
        CHECK(offload.ptx.find(".entry pj_offload_bound") != std::string::npos);
        CHECK(offload.ptx.find(".entry pj_offload_branch") != std::string::npos);
        CHECK(offload.cubin.size() > 0);
      }
    }
  }
}

TEST_CASE("an NVRTC error points into the spec through #line", "[nvrtc]") {
  // A generated source whose user line is broken on purpose: the log must name the
  // .toml and its line, not the generated file.
  ProblemSource src{"broken.problem.inc",
                    "namespace problem {\n#line 7 \"my/spec.toml\"\nint x = undefined_name;\n}\n"};
  NvrtcOutput out = nvrtc_compile(assemble_unit(src, {}), "broken.cu", "sm_90", false);
  REQUIRE_FALSE(out.ok);
  CHECK(out.log.find("my/spec.toml(7)") != std::string::npos);
}
