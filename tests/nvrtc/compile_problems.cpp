// Every problem in problems/ generates a source that NVRTC compiles, for sm_90, to PTX
// and to a cubin, with every GPU skeleton's kernels (dfs; ivm; offload for optimisation
// problems; cdp linked with the device runtime by nvJitLink; rec) and with the probe
// kernel (templates/probe.cuh); and the ivm skeleton's open-work unit. Needs no GPU.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "dsl/load_spec.hpp"
#include "generator/generate.hpp"
#include "runtime/compile/device_link.hpp"
#include "runtime/compile/gpu_compile.hpp"
#include "runtime/compile/nvrtc_compile.hpp"
#include "runtime/skeletons.hpp"
#include "runtime/solve.hpp"
#include "test_paths.hpp"

using namespace permjit;

namespace {

// An instance for each problem that reads one.
std::string instance_for(const std::string& problem) {
  if (problem == "atsp.toml") return test::instance("atsp/br17.atsp");
  if (problem == "qap.toml") return test::instance("qap/nug12.dat");
  if (problem == "flowshop.toml") return test::instance("flowshop/ta021.txt");
  if (problem == "puzzle15.toml") return test::instance("15puzzle/korf100.txt");
  if (problem == "puzzle24.toml") return test::instance("24puzzle/korf_taylor10.txt");
  return "";
}

// A problem of problems/ with its instance (the first board of a file of boards).
ProblemSpec load_problem(const std::string& name) {
  LoadOptions o;
  o.spec_path = test::problem(name);
  o.instance_path = instance_for(name);
  o.instance_record = name == "puzzle15.toml" || name == "puzzle24.toml" ? 1 : 0;
  return load_spec(o);
}

// The device unit the registry's row `skeleton` builds (default options): what a solve
// compiles; `deferred`: the one it compiles when a run first needs it.
CompileUnit device_unit_of(std::string_view skeleton, const ProblemSpec& spec, const ProblemSource& src,
                           const std::string& ivm_rows = "", bool deferred = false) {
  const Skeleton* sk = find_skeleton(skeleton);
  REQUIRE(sk != nullptr);
  SolveOptions opts;
  opts.ivm_rows = ivm_rows;
  SkeletonUnits units = sk->units(UnitInputs{sk->name, spec, src, opts});
  std::optional<CompileUnit> unit = deferred ? units.deferred : units.device;
  REQUIRE(unit);
  return *unit;
}

NvrtcOutput compile_unit(const CompileUnit& u) { return nvrtc_compile(u.text, u.name, "sm_90", true, u.options); }

// Every spec in problems/, sorted.
std::vector<std::string> problem_names() {
  std::vector<std::string> problems;
  for (const auto& e : std::filesystem::directory_iterator(test::source_dir() + "/problems"))
    if (e.path().extension() == ".toml") problems.push_back(e.path().filename().string());
  std::sort(problems.begin(), problems.end());
  return problems;
}

}  // namespace

TEST_CASE("every problem compiles with NVRTC for sm_90, with the dfs, ivm, offload and probe kernels", "[nvrtc]") {
  std::vector<std::string> problems = problem_names();
  REQUIRE(problems.size() >= 4);
  for (const auto& name : problems) {
    DYNAMIC_SECTION(name) {
      ProblemSpec spec = load_problem(name);
      ProblemSource src = generate_problem(spec);
      if (spec.goal == Goal::path) {  // the IDA* kernels instead of the placement skeletons'
        NvrtcOutput ida = compile_unit(device_unit_of("ida", spec, src));
        INFO(ida.log);
        REQUIRE(ida.ok);
        CHECK(ida.ptx.find(".entry pj_ida_warp") != std::string::npos);
        CHECK(ida.ptx.find(".entry pj_ida_thread") != std::string::npos);
        CHECK(ida.cubin.size() > 0);
        return;
      }
      NvrtcOutput out = compile_unit(device_unit_of("probe", spec, src));
      INFO(out.log);
      REQUIRE(out.ok);
      CHECK(out.ptx.find(".target sm_90") != std::string::npos);
      CHECK(out.ptx.find(".entry pj_probe") != std::string::npos);
      CHECK(out.cubin.size() > 0);
      NvrtcOutput dfs = compile_unit(device_unit_of("dfs", spec, src));
      INFO(dfs.log);
      REQUIRE(dfs.ok);
      CHECK(dfs.ptx.find(".entry pj_dfs") != std::string::npos);
      CHECK(dfs.cubin.size() > 0);
      NvrtcOutput ivm = compile_unit(device_unit_of("ivm", spec, src));
      INFO(ivm.log);
      REQUIRE(ivm.ok);
      for (const char* kernel : {"pj_ivm_init", "pj_ivm_explore", "pj_ivm_select", "pj_ivm_steal"})
        CHECK(ivm.ptx.find(std::string(".entry ") + kernel) != std::string::npos);
      CHECK(ivm.cubin.size() > 0);
      // The open-work kernels of a stop: in a unit of their own, compiled when first needed.
      CHECK(ivm.ptx.find("pj_ivm_open_bound") == std::string::npos);
      NvrtcOutput open = compile_unit(device_unit_of("ivm", spec, src, "", true));
      INFO(open.log);
      REQUIRE(open.ok);
      for (const char* kernel : {"pj_ivm_open_bound", "pj_ivm_open_refine"})
        CHECK(open.ptx.find(std::string(".entry ") + kernel) != std::string::npos);
      CHECK(open.ptx.find(".entry pj_ivm_explore") == std::string::npos);
      CHECK(open.cubin.size() > 0);
      if (spec.goal != Goal::count) {  // the offload skeleton bounds: optimisation only
        NvrtcOutput offload = compile_unit(device_unit_of("offload", spec, src));
        INFO(offload.log);
        REQUIRE(offload.ok);
        CHECK(offload.ptx.find(".entry pj_offload_bound") != std::string::npos);
        CHECK(offload.ptx.find(".entry pj_offload_branch") != std::string::npos);
        CHECK(offload.ptx.find(".entry pj_offload_refine") != std::string::npos);  // empty without a block form
        CHECK(offload.cubin.size() > 0);
      }
    }
  }
}

// Jobs at both ends: the ivm kernels over a two-ended tree (templates/ivm_two_ends.h).
// A 20x5 instance keeps the compile short.
TEST_CASE("the ivm kernels compile for a two-ended flowshop", "[nvrtc][two_ends]") {
  LoadOptions o;
  o.spec_path = test::problem("flowshop.toml");
  o.instance_path = test::instance("flowshop/ta001.txt");
  o.params = {"branching=2"};
  ProblemSpec spec = load_spec(o);
  NvrtcOutput ivm = compile_unit(device_unit_of("ivm", spec, generate_problem(spec)));
  INFO(ivm.log);
  REQUIRE(ivm.ok);
  CHECK(ivm.ptx.find(".entry pj_ivm_explore") != std::string::npos);
  // 20 rows of a two-ended node, 128 threads: past 64 KiB, so local rows.
  CHECK(ivm.ptx.find("pj_ivm_shared_rows = 1;") == std::string::npos);
  CHECK(ivm.cubin.size() > 0);
}

// Sizes 65 to 128: sets are one 128-bit word in device code too. ftv70 (71 cities) on the
// ATSP's GPU skeleton (offload, with its refine) and on dfs; a 70-job flowshop forward on
// dfs and at both ends on offload (ivm takes up to 64 levels).
TEST_CASE("sizes above 64 compile with NVRTC: the ATSP at 71 cities, a flowshop of 70 jobs", "[nvrtc][wide]") {
  LoadOptions o;
  o.spec_path = test::problem("atsp.toml");
  o.instance_path = test::instance("atsp/ftv70.atsp");
  ProblemSpec atsp = load_spec(o);
  REQUIRE(atsp.size == 71);
  ProblemSource src = generate_problem(atsp);
  REQUIRE(src.text.find("using Mask = unsigned __int128;") != std::string::npos);
  for (const char* skeleton : {"offload", "dfs"}) {
    NvrtcOutput out = compile_unit(device_unit_of(skeleton, atsp, src));
    INFO(skeleton << "\n" << out.log);
    REQUIRE(out.ok);
    CHECK(out.cubin.size() > 0);
  }
  std::string times = "70 5\n";
  for (int k = 0; k < 5; ++k) {
    for (int j = 0; j < 70; ++j) times += std::to_string(1 + (j * 37 + k * 11) % 90) + " ";
    times += "\n";
  }
  const std::string path = test::own_scratch_dir() + "/flowshop70.txt";
  std::ofstream(path) << times;
  for (const char* branching : {"branching=1", "branching=2"}) {
    LoadOptions f;
    f.spec_path = test::problem("flowshop.toml");
    f.instance_path = path;
    f.params = {branching};
    ProblemSpec spec = load_spec(f);
    ProblemSource fsrc = generate_problem(spec);
    NvrtcOutput out = compile_unit(device_unit_of(spec.branch.ends == 2 ? "offload" : "dfs", spec, fsrc));
    INFO(branching << "\n" << out.log);
    REQUIRE(out.ok);
    CHECK(out.cubin.size() > 0);
  }
}

// One explore kernel is compiled, for the rows' placement: automatic (shared while a
// block's rows take at most 64 KiB) or --ivm-rows; the host reads pj_ivm_shared_rows.
TEST_CASE("the ivm unit compiles the explore kernel for the rows' placement", "[nvrtc]") {
  LoadOptions o;
  o.spec_path = test::problem("nqueens.toml");
  o.params = {"n=8"};
  ProblemSpec spec = load_spec(o);
  const ProblemSource src = generate_problem(spec);
  for (auto [rows, shared] : {std::pair{"", 1}, std::pair{"local", 0}, std::pair{"shared", 1}}) {
    INFO("--ivm-rows '" << rows << "'");
    NvrtcOutput ivm = compile_unit(device_unit_of("ivm", spec, src, rows));
    INFO(ivm.log);
    REQUIRE(ivm.ok);
    // (PTX leaves out an initialiser of zero.)
    CHECK((ivm.ptx.find("pj_ivm_shared_rows = 1;") != std::string::npos) == (shared == 1));
    // The shared rows' array is the only dynamic shared memory of the unit.
    CHECK((ivm.ptx.find("pj_ivm_rows[]") != std::string::npos) == (shared == 1));
  }
}

// Node code that solves an assignment or arborescence keeps the rows in local memory
// whatever their size (templates/gpu_ivm.cuh); atsp.toml's partial cost alone (lb = 0)
// is light, and br17's 17 rows fit 64 KiB.
TEST_CASE("the ivm unit keeps heavy nodes' rows in local memory", "[nvrtc]") {
  for (auto [lb, shared] : {std::pair{"lb=0", 1}, std::pair{"lb=1", 0}}) {
    INFO(lb);
    LoadOptions o;
    o.spec_path = test::problem("atsp.toml");
    o.instance_path = test::instance("atsp/br17.atsp");
    o.params = {lb};
    ProblemSpec spec = load_spec(o);
    NvrtcOutput ivm = compile_unit(device_unit_of("ivm", spec, generate_problem(spec)));
    INFO(ivm.log);
    REQUIRE(ivm.ok);
    CHECK((ivm.ptx.find("pj_ivm_shared_rows = 1;") != std::string::npos) == (shared == 1));
  }
}

// assign() and minprod() (templates/pair_reductions.h): the assignment bounds of atsp
// (lb = 1) and qap (lb = 2, Gilmore-Lawler) in the dfs and ivm kernels.
TEST_CASE("the assignment bounds compile with NVRTC in the dfs and ivm kernels", "[nvrtc][assign]") {
  for (auto [name, param] : {std::pair{"atsp.toml", "lb=1"}, std::pair{"qap.toml", "lb=2"}}) {
    DYNAMIC_SECTION(name << " " << param) {
      LoadOptions o;
      o.spec_path = test::problem(name);
      o.instance_path = instance_for(name);
      o.params = {param};
      ProblemSpec spec = load_spec(o);
      ProblemSource src = generate_problem(spec);
      REQUIRE(src.text.find("pj::assign_min<") != std::string::npos);
      for (const char* skeleton : {"dfs", "ivm"}) {
        NvrtcOutput out = compile_unit(device_unit_of(skeleton, spec, src));
        INFO(skeleton << "\n" << out.log);
        REQUIRE(out.ok);
        CHECK(out.cubin.size() > 0);
      }
    }
  }
}

// A refine with dualassign() (qap.toml lb = 3) has a block form, refine_block, which
// the offload unit's refine kernel calls with a scratch of the tables' size per block;
// without one (lb = 2) the kernel is empty and takes none.
TEST_CASE("the offload unit computes a dualassign() refine by a block, and only then", "[nvrtc][dualassign]") {
  for (auto [param, block] : {std::pair{"lb=3", true}, std::pair{"lb=2", false}}) {
    DYNAMIC_SECTION(param) {
      LoadOptions o;
      o.spec_path = test::problem("qap.toml");
      o.instance_path = instance_for("qap.toml");
      o.params = {param};
      ProblemSpec spec = load_spec(o);
      ProblemSource src = generate_problem(spec);
      // nug12: the facilities d..n (11 at most below the root) and 12 free locations: K = 12,
      // 12 x 12 costs and 12^4 pair costs of 4 bytes.
      const std::string bytes = std::to_string(block ? 12 * 12 * 4 + 12 * 12 * 12 * 12 * 4 : 0) + "ull";
      CHECK(src.text.find("constexpr unsigned long long kBlockScratchBytes = " + bytes) != std::string::npos);
      NvrtcOutput out = compile_unit(device_unit_of("offload", spec, src));
      INFO(out.log);
      REQUIRE(out.ok);
      CHECK(out.cubin.size() > 0);
      // The block solver's barriers are in the refine kernel exactly when it has a block form.
      const size_t at = out.ptx.find(".entry pj_offload_refine");
      REQUIRE(at != std::string::npos);
      const size_t end = out.ptx.find(".entry", at + 1);
      CHECK((out.ptx.substr(at, end == std::string::npos ? std::string::npos : end - at).find("bar.sync") !=
             std::string::npos) == block);
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

TEST_CASE("every problem's cdp module compiles as relocatable code and links with the device runtime",
          "[nvrtc][cdp]") {
  const std::string devrt = find_device_runtime();
  ModuleCache cache(test::cache_dir() + "/nvrtc-cdp");
  for (const auto& name : problem_names()) {
    DYNAMIC_SECTION(name) {
      ProblemSpec spec = load_problem(name);
      if (spec.goal == Goal::path) return;  // cdp searches placement problems only
      ProblemSource src = generate_problem(spec);
      const CompileUnit unit = device_unit_of("cdp", spec, src);
      REQUIRE(unit.device_runtime);
      // The parts: NVRTC's relocatable cubin, then nvJitLink with libcudadevrt.a.
      NvrtcOutput rdc = compile_unit(unit);
      INFO(rdc.log);
      REQUIRE(rdc.ok);
      CHECK(rdc.ptx.find(".entry pj_cdp_intermediate") != std::string::npos);
      CHECK(rdc.ptx.find(".entry pj_cdp_final") != std::string::npos);
      CHECK(rdc.ptx.find("LaunchDevice") != std::string::npos);  // a device-side launch
      DeviceLinkOutput linked = link_with_device_runtime(rdc.cubin, "sm_90", devrt);
      INFO(linked.log);
      REQUIRE(linked.ok);
      CHECK(linked.cubin.size() > rdc.cubin.size());  // the device runtime came in
      CHECK(linked.cubin.compare(0, 4, "\x7f" "ELF") == 0);
      // The whole path a solve takes, through the module cache: compiled, then a hit. For
      // the first problem only: it compiles the unit again, and it is the same for all.
      if (name == problem_names().front()) {
        GpuModuleImage first = compile_gpu_module(unit, "sm_90", cache);
        GpuModuleImage again = compile_gpu_module(unit, "sm_90", cache);
        CHECK(again.cache_hit);
        CHECK(again.cubin == first.cubin);
      }
      // rec launches nothing from the device: a plain cubin.
      const CompileUnit rec_unit = device_unit_of("rec", spec, src);
      CHECK_FALSE(rec_unit.device_runtime);
      NvrtcOutput rec = compile_unit(rec_unit);
      INFO(rec.log);
      REQUIRE(rec.ok);
      CHECK(rec.ptx.find(".entry pj_rec_final") != std::string::npos);
      CHECK(rec.ptx.find("LaunchDevice") == std::string::npos);
    }
  }
}

TEST_CASE("a link error names nvJitLink's reason", "[nvrtc][cdp]") {
  DeviceLinkOutput out = link_with_device_runtime("not a cubin", "sm_90", find_device_runtime());
  CHECK_FALSE(out.ok);
  CHECK_FALSE(out.log.empty());
}

// The device-fault test hook (runtime/compile/device_fault_hook.hpp): with the variable set,
// every search kernel a host launches holds a trap and the unit carries the option;
// without it, no kernel does. What tests/gpu/device_fault_test.py relies on.
TEST_CASE("the device-fault test hook puts a trap in every host-launched search kernel, and only then",
          "[nvrtc][fault]") {
  struct Case {
    const char* spec;
    std::vector<std::string> params;
    std::string instance;
    int record;
    std::vector<const char*> skeletons;
  };
  const std::vector<Case> cases = {
      {"nqueens.toml", {"n=8"}, "", 0, {"dfs", "ivm", "cdp", "rec"}},
      {"flowshop.toml", {"branching=1", "lb=1"}, test::instance("flowshop/ta001.txt"), 0, {"offload"}},
      {"puzzle15.toml", {}, test::instance("15puzzle/korf100.txt"), 1, {"ida", "ida-thread"}},
  };
  for (const Case& c : cases) {
    LoadOptions o;
    o.spec_path = test::problem(c.spec);
    o.params = c.params;
    o.instance_path = c.instance;
    o.instance_record = c.record;
    ProblemSpec spec = load_spec(o);
    ProblemSource src = generate_problem(spec);
    for (const char* sk : c.skeletons) {
      INFO(c.spec << " " << sk);
      CompileUnit plain = device_unit_of(sk, spec, src);
      setenv("PERMJIT_TEST_DEVICE_FAULT", "3", 1);
      CompileUnit hooked = device_unit_of(sk, spec, src);
      unsetenv("PERMJIT_TEST_DEVICE_FAULT");
      CHECK(hooked.text == plain.text);  // a checkpoint of the one resumes with the other
      CHECK(std::count(hooked.options.begin(), hooked.options.end(), "-DPJ_TEST_DEVICE_FAULT=3") == 1);
      CHECK(std::count(plain.options.begin(), plain.options.end(), "-DPJ_TEST_DEVICE_FAULT=3") == 0);
      NvrtcOutput with = compile_unit(hooked), without = compile_unit(plain);
      INFO(with.log << without.log);
      REQUIRE(with.ok);
      REQUIRE(without.ok);
      CHECK(with.ptx.find("trap;") != std::string::npos);
      CHECK(without.ptx.find("trap;") == std::string::npos);
    }
  }
}
