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
#include "generator/choose_data.hpp"
#include "generator/generate.hpp"
#include "runtime/compile/cache.hpp"
#include "runtime/compile/nvrtc_compile.hpp"
#include "runtime/option_table.hpp"
#include "runtime/skeletons.hpp"
#include "runtime/solve.hpp"
#include "tools/permjit/commands.hpp"

namespace permjit {

namespace {

const char* kStages = "spec | source | cpu | cuda | ptx | sass | resources";

// The skeleton whose units `emit` shows: --skeleton, else the cpu row for the host
// stage, and for the device stages the spec's [search] gpu_skeleton where it applies
// (what a GPU solve runs), else dfs (ida for a path problem).
const Skeleton& emitted_skeleton(const EmitOptions& opts, const ProblemSpec& spec, bool host_stage) {
  const bool path = spec.goal == Goal::path;
  if (opts.skeleton.empty()) {
    if (host_stage) return default_skeleton(Backend::cpu, path);
    const Skeleton* preferred = preferred_gpu_skeleton(spec);
    return preferred ? *preferred : emit_default_skeleton(path);
  }
  const Skeleton* sk = find_skeleton(opts.skeleton);
  if (!sk)
    command_line_error("--skeleton " + opts.skeleton, 12, "unknown skeleton '" + opts.skeleton + "'",
                       "skeletons: " + skeleton_names([](const Skeleton&) { return true; }));
  return *sk;
}

// The unit a stage shows: the host unit for `cpu`, the device unit for the others (with
// --unit deferred, the device unit compiled when a run first needs it); a skeleton
// without one is refused at its name, or at --unit.
CompileUnit emitted_unit(const EmitOptions& opts, const ProblemSpec& spec, const ProblemSource& src, bool host_stage) {
  const Skeleton& sk = emitted_skeleton(opts, spec, host_stage);
  SolveOptions so = opts.solve;
  so.load = opts.load;
  so.skeleton = std::string(sk.name);
  check_skeleton_options(so, sk, spec);  // the options given are ones this skeleton takes
  SkeletonUnits units = emit_units(so, sk, spec, src);
  if (opts.unit == "deferred") {
    if (host_stage || !units.deferred)
      command_line_error("--unit deferred", 8,
                         host_stage ? "--stage cpu shows the host unit, which is never deferred"
                                    : "skeleton '" + std::string(sk.name) + "' compiles no deferred unit",
                         "the ivm skeleton has one, its open-work kernels: --skeleton ivm --unit deferred");
    return std::move(*units.deferred);
  }
  std::optional<CompileUnit>& unit = host_stage ? units.host : units.device;
  if (!unit)
    command_line_error("--skeleton " + std::string(sk.name), 12,
                       "skeleton '" + std::string(sk.name) + "' has no " + (host_stage ? "host" : "device") + " code",
                       host_stage ? "--stage cuda, ptx, sass or resources show its device code"
                                  : "--stage cpu shows its host code");
  return std::move(*unit);
}

// Where scripts/install-deps.sh puts a disassembler when the CUDA toolkit lacks one.
std::string installed_tools_dir() {
  if (const char* d = std::getenv("PERMJIT_CUDA_TOOLS"); d && *d) return std::string(d) + "/bin";
  if (const char* x = std::getenv("XDG_DATA_HOME"); x && *x) return std::string(x) + "/permjit/cuda-tools/bin";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.local/share/permjit/cuda-tools/bin";
  return {};
}

// A CUDA tool from PATH, the CUDA toolkit or the installed tools, or empty.
std::string find_tool(const std::string& name) {
  std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  path += ":/usr/local/cuda/bin:" + installed_tools_dir();
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
  std::string tool = find_tool("cuobjdump"), disasm = find_tool("nvdisasm");
  if (tool.empty() || disasm.empty()) {
    std::cerr << "permjit: error: --stage sass needs cuobjdump and nvdisasm (CUDA toolkit), not found in PATH, "
                 "/usr/local/cuda/bin or " << installed_tools_dir() << "\n  hint: scripts/install-deps.sh installs them\n";
    return 1;
  }
  // cuobjdump runs nvdisasm: the one found, which may not be on PATH.
  setenv("NVDISASM_PATH", std::filesystem::path(disasm).parent_path().c_str(), 1);
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
    command_line_error("--stage " + st, 9, "unknown stage '" + st + "'", std::string("stages: ") + kStages);
  if (opts.unit != "main" && opts.unit != "deferred")
    command_line_error("--unit " + opts.unit, 8, "unknown unit '" + opts.unit + "'", "units: main, deferred");
  LoadOptions load = opts.load;
  load.need_instance = st != "spec" || !opts.load.instance_path.empty();
  ProblemSpec spec = load_spec(load);
  settle_data(spec, st == "cpu" ? DataTarget::host : DataTarget::device);
  if (st == "spec") {
    std::cout << describe_spec(spec);
    return 0;
  }
  ProblemSource src = generate_problem(spec);
  if (st == "source") {
    std::cout << src.text;
    return 0;
  }
  const CompileUnit unit = emitted_unit(opts, spec, src, st == "cpu");
  if (st == "cpu" || st == "cuda") {
    std::cout << unit.text;
    return 0;
  }
  std::vector<std::string> options = unit.options;
  if (st == "resources") options.push_back("--ptxas-options=-v");
  NvrtcOutput out = nvrtc_compile(unit.text, unit.name, opts.arch, st != "ptx", options);
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
