// `permjit emit`: what each stage of the pipeline made, so a user can read what runs.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>

#include "dsl/describe.hpp"
#include "dsl/diagnostics.hpp"
#include "generator/generate.hpp"
#include "runtime/cache.hpp"
#include "runtime/nvrtc_compile.hpp"
#include "runtime/skeletons.hpp"
#include "runtime/unit.hpp"
#include "tools/permjit/commands.hpp"

namespace permjit {

namespace {

const char* kStages = "spec | source | cpu | cuda | ptx | sass | resources";

[[noreturn]] void option_error(const std::string& shown, int col, const std::string& msg, const std::string& hint) {
  Diagnostics d;
  d.error(Loc{make_source("<command line>", shown), 1, col}, msg, hint);
  throw UserErrors(std::move(d));
}

// A GPU skeleton's translation unit and the NVRTC options it needs.
struct GpuUnit {
  std::string text;
  std::vector<std::string> options;
};

GpuUnit gpu_unit(const std::string& skeleton, const ProblemSpec& spec, const ProblemSource& src) {
  if (spec.goal != Goal::path && spec.branch.ends == 2 && skeleton != "probe") {
    Diagnostics d;
    d.error(spec.branch.ends_loc, "branch.ends = 2 places values at both ends; no GPU skeleton does yet",
            "--skeleton probe shows the problem's functions alone; solve runs it on the cpu skeleton");
    throw UserErrors(std::move(d));
  }
  if (skeleton == "dfs") return {assemble_unit(src, gpu_dfs_templates()), {"-DPJ_BLOCK=128"}};
  if (skeleton == "ivm") return {gpu_ivm_unit(spec, src), {"-DPJ_BLOCK=128"}};
  // cdp's kernels launch kernels: relocatable device code (the solve links it with
  // the device runtime; the stages here show the module before that link).
  if (skeleton == "cdp") return {assemble_unit(src, gpu_cdp_templates()), {"-DPJ_BLOCK=128", "-DPJ_CDP=1", "-rdc=true"}};
  if (skeleton == "rec") return {assemble_unit(src, gpu_cdp_templates()), {"-DPJ_BLOCK=128", "-DPJ_CDP=0"}};
  if (skeleton == "offload") return {assemble_unit(src, gpu_offload_templates()), {"-DPJ_BLOCK=128"}};
  if (skeleton == "probe") return {assemble_unit(src, {"probe.cuh"}), {}};
  // One module holds both IDA* kernels (pj_ida_warp and pj_ida_thread).
  if (skeleton == "ida" || skeleton == "ida-thread") return {assemble_unit(src, gpu_ida_templates()), gpu_ida_defines()};
  option_error("--skeleton " + skeleton, 12, "no GPU code for skeleton '" + skeleton + "'",
               "GPU stages show: dfs (default), ivm, cdp, rec, offload, ida, ida-thread, probe (the problem's "
               "functions alone)");
}

// cuobjdump from PATH or the CUDA toolkit, or empty.
std::string find_tool(const std::string& name) {
  std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  path += ":/usr/local/cuda/bin";
  size_t b = 0;
  while (b <= path.size()) {
    size_t e = path.find(':', b);
    if (e == std::string::npos) e = path.size();
    std::string cand = path.substr(b, e - b) + "/" + name;
    if (!cand.empty() && access(cand.c_str(), X_OK) == 0) return cand;
    b = e + 1;
  }
  return {};
}

int print_sass(const std::string& cubin) {
  std::string tool = find_tool("cuobjdump");
  if (tool.empty()) {
    std::cerr << "permjit: error: --stage sass needs cuobjdump (CUDA toolkit), not found in PATH or /usr/local/cuda/bin\n";
    return 1;
  }
  std::string file = (std::filesystem::temp_directory_path() / ("permjit-" + std::to_string(getpid()) + ".cubin")).string();
  if (!write_file_atomic(file, cubin)) {
    std::cerr << "permjit: error: cannot write " << file << '\n';
    return 1;
  }
  int rc = std::system(("'" + tool + "' -sass '" + file + "'").c_str());
  std::filesystem::remove(file);
  return rc == 0 ? 0 : 1;
}

}  // namespace

int emit_command(const EmitOptions& opts) {
  const std::string& st = opts.stage;
  static const std::vector<std::string> stages = {"spec", "source", "cpu", "cuda", "ptx", "sass", "resources"};
  if (std::find(stages.begin(), stages.end(), st) == stages.end())
    option_error("--stage " + st, 9, "unknown stage '" + st + "'", std::string("stages: ") + kStages);
  LoadOptions load = opts.load;
  load.need_instance = st != "spec" || !opts.load.instance_path.empty();
  ProblemSpec spec = load_spec(load);
  if (st == "spec") {
    std::cout << describe_spec(spec);
    return 0;
  }
  ProblemSource src = generate_problem(spec);
  if (st == "source") {
    std::cout << src.text;
    return 0;
  }
  if (st == "cpu") {
    std::cout << assemble_unit(src, spec.goal == Goal::path ? cpu_ida_templates() : cpu_dfs_templates());
    return 0;
  }
  GpuUnit gu = gpu_unit(opts.skeleton.empty() ? (spec.goal == Goal::path ? "ida" : "dfs") : opts.skeleton, spec, src);
  std::string unit = gu.text;
  if (st == "cuda") {
    std::cout << unit;
    return 0;
  }
  std::vector<std::string> extra = gu.options;
  if (st == "resources") extra.push_back("--ptxas-options=-v");
  NvrtcOutput out = nvrtc_compile(unit, spec.name + ".cu", opts.arch, st != "ptx", extra);
  if (!out.ok) {
    std::cerr << "permjit: error: NVRTC failed on the generated code for " << opts.arch << ":\n" << out.log << '\n';
    return 1;
  }
  if (st == "ptx") std::cout << out.ptx;
  if (st == "resources") std::cout << out.log << '\n';
  if (st == "sass") return print_sass(out.cubin);
  return 0;
}

}  // namespace permjit
