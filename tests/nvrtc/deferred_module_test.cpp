// A skeleton's deferred unit (runtime/compile/deferred_module.hpp; the ivm skeleton's
// open-work kernels): compiled through the module cache only when asked, on a thread of
// its own from start() or at get(); read from the cache by the next run; a failed
// compile's error raised at every get(). NVRTC needs no GPU.
#include <catch2/catch.hpp>
#include <filesystem>

#include "dsl/load_spec.hpp"
#include "generator/generate.hpp"
#include "runtime/compile/deferred_module.hpp"
#include "runtime/compile/host_compiler.hpp"
#include "runtime/skeletons.hpp"
#include "runtime/solve.hpp"
#include "test_paths.hpp"

using namespace permjit;

namespace {

// The ivm skeleton's deferred unit for N-Queens 8 (a short compile).
CompileUnit open_work_unit() {
  LoadOptions o;
  o.spec_path = test::problem("nqueens.toml");
  o.params = {"n=8"};
  const ProblemSpec spec = load_spec(o);
  const ProblemSource src = generate_problem(spec);
  const Skeleton* sk = find_skeleton("ivm");
  REQUIRE(sk != nullptr);
  SkeletonUnits units = sk->units(UnitInputs{sk->name, spec, src, SolveOptions{}});
  REQUIRE(units.deferred);
  CHECK(units.deferred->name == "nqueens.ivm-open.cu");
  return *units.deferred;
}

// An empty module cache of this process.
ModuleCache empty_cache(const std::string& name) {
  const std::string dir = test::own_scratch_dir() + "/" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return ModuleCache(dir);
}

}  // namespace

TEST_CASE("a deferred unit compiles at its first get(), and the next run reads it from the cache", "[nvrtc][deferred]") {
  const CompileUnit unit = open_work_unit();
  const ModuleCache cache = empty_cache("deferred-at-need");
  std::string cubin;
  {
    DeferredGpuModule m(unit, "sm_90", cache);
    CHECK(m.how() == DeferredHow::not_needed);
    CHECK_FALSE(m.ready());  // nothing compiled it yet
    const GpuModuleImage& image = m.get();
    CHECK_FALSE(image.cache_hit);
    CHECK_FALSE(image.cubin.empty());
    cubin = image.cubin;
    CHECK(m.how() == DeferredHow::at_need);
    CHECK(m.ready());
    CHECK(m.compile_s() > 0);
    CHECK(m.waited_s() >= m.compile_s());  // get() waited for the whole compile
  }
  DeferredGpuModule next(unit, "sm_90", cache);
  CHECK(next.how() == DeferredHow::cached);
  CHECK(next.ready());
  CHECK(next.get().cache_hit);
  CHECK(next.get().cubin == cubin);
  CHECK(next.compile_s() == 0);
  CHECK(std::string(deferred_how_name(next.how())) == "cached");
}

TEST_CASE("a deferred unit started ahead compiles beside the caller, which waits only for the rest",
          "[nvrtc][deferred]") {
  const CompileUnit unit = open_work_unit();
  DeferredGpuModule m(unit, "sm_90", empty_cache("deferred-ahead"));
  m.start();
  m.start();  // a second start changes nothing
  CHECK(m.how() == DeferredHow::ahead);
  m.wait();
  CHECK(m.ready());
  CHECK(m.waited_s() == 0);  // nobody asked for it yet
  const GpuModuleImage& image = m.get();
  CHECK_FALSE(image.cubin.empty());
  CHECK(m.how() == DeferredHow::ahead);
  CHECK(m.compile_s() > 0);
  CHECK(m.waited_s() < m.compile_s());  // compiled before get(): no wait for NVRTC
  // A run that ends without the unit after starting it: the destructor waits.
  DeferredGpuModule unused(unit, "sm_90", empty_cache("deferred-unused"));
  unused.start();
}

TEST_CASE("a deferred unit that fails to compile raises its error at every get()", "[nvrtc][deferred]") {
  CompileUnit broken = open_work_unit();
  broken.text += "\nthis is not C++;\n";
  DeferredGpuModule m(broken, "sm_90", empty_cache("deferred-broken"));
  m.start();
  CHECK_THROWS_AS(m.get(), CompileError);
  CHECK(m.ready());
  CHECK_THROWS_AS(m.get(), CompileError);
}
