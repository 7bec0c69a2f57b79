// A generated problem compiled on the host with skeleton templates and a harness file
// of the tests (tests/ivm/ivm_host_sim.hpp, tests/e2e/child_bound_harness.hpp), loaded,
// its instance data filled in: how the e2e tests call generated code without a GPU.
#pragma once
#include <dlfcn.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "e2e_support.hpp"
#include "generator/generate.hpp"
#include "runtime/compile/cache.hpp"
#include "runtime/compile/compile_unit.hpp"
#include "runtime/compile/host_compiler.hpp"
#include "runtime/device/run_time_data.hpp"

namespace permjit::test {

class HostHarness {
 public:
  // `harness`: a path under the source tree; `ivm_layout`: add the IVM layout part.
  HostHarness(const std::string& spec_path, const std::string& instance, std::vector<std::string> params,
              const std::string& harness, const std::vector<std::string>& templates, bool ivm_layout = false) {
    LoadOptions load;
    load.spec_path = spec_path;
    load.instance_path = instance;
    load.params = std::move(params);
    ProblemSpec spec = load_spec(load);
    std::ifstream in(source_dir() + "/" + harness);
    std::stringstream text;
    text << in.rdbuf();
    REQUIRE(!text.str().empty());
    const ProblemSource problem = generate_problem(spec);
    problem_text_ = problem.text;
    std::vector<ProblemSource> parts;
    if (ivm_layout) parts.push_back(generate_ivm_layout(spec));
    std::string unit = assemble_unit(problem, templates, parts);
    unit += "#line 1 \"" + harness + "\"\n" + text.str();
    HostModule m = compile_host_module(unit, ModuleCache(cache_dir()));
    handle_ = dlopen(m.path.c_str(), RTLD_NOW | RTLD_LOCAL);
    REQUIRE(handle_ != nullptr);
    fill_host_data(problem.data, handle_, m.path);  // the instance's values, read at run time
  }
  ~HostHarness() {
    if (handle_) dlclose(handle_);
  }
  HostHarness(const HostHarness&) = delete;
  HostHarness& operator=(const HostHarness&) = delete;

  // The harness's extern "C" function `name`.
  template <class Fn>
  Fn function(const char* name) const {
    auto f = reinterpret_cast<Fn>(dlsym(handle_, name));
    REQUIRE(f != nullptr);
    return f;
  }
  const std::string& problem_text() const { return problem_text_; }

 private:
  void* handle_ = nullptr;
  std::string problem_text_;
};

}  // namespace permjit::test
