// `permjit emit`: what each stage of the pipeline made, so a user can read what runs.
#include <cstdio>
#include <iostream>

#include "dsl/describe.hpp"
#include "dsl/diagnostics.hpp"
#include "generator/generate.hpp"
#include "runtime/nvrtc_compile.hpp"
#include "runtime/unit.hpp"
#include "tools/permjit/commands.hpp"

namespace permjit {

int emit_command(const EmitOptions& opts) {
  const std::string& st = opts.stage;
  if (st != "spec" && st != "source" && st != "cpu" && st != "ptx") {
    Diagnostics d;
    d.error(Loc{make_source("<command line>", "--stage " + st), 1, 9}, "unknown stage '" + st + "'",
            "stages: spec (the checked spec), source (the generated problem), cpu (the CPU translation unit), "
            "ptx (NVRTC's PTX of the problem's probe kernel)");
    throw UserErrors(std::move(d));
  }
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
    std::cout << assemble_unit(src, {"cpu_abi.h", "cpu_dfs.hpp"});
    return 0;
  }
  NvrtcOutput out = nvrtc_compile(assemble_unit(src, {"probe.cuh"}), spec.name + ".cu", opts.arch, false);
  if (!out.ok) {
    std::cerr << "permjit: error: NVRTC failed on the generated code for " << opts.arch << ":\n" << out.log << '\n';
    return 1;
  }
  std::cout << out.ptx;
  return 0;
}

}  // namespace permjit
