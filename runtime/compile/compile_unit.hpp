// What gets compiled: one type for a translation unit and everything that shapes its
// binary, built once by a skeleton's registry row (runtime/skeletons.hpp) and used both
// by `solve`, which compiles it, and by `emit`, which prints it — so what a user
// inspects is what runs.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dsl/spec.hpp"
#include "generator/generate.hpp"

namespace permjit {

struct SolveOptions;

enum class UnitTarget { host, device };

struct CompileUnit {
  UnitTarget target = UnitTarget::host;
  std::string name;                     // what compiler messages call it, e.g. "nqueens.ivm.cu"
  std::vector<std::string> templates;   // templates/ files after the problem, in order
  std::vector<std::string> generated;   // names of generated parts between problem and templates
  std::vector<std::string> options;     // compiler options: -D..., -rdc=true
  bool device_runtime = false;          // linked with libcudadevrt (kernels that launch kernels)
  std::string text;                     // prelude, problem, generated parts, templates
  std::vector<RunTimeArray> data;       // written into the module when it loads (not compiled)
};

// A skeleton's units: the host module (the CPU search, a frontier, a pool) and the
// device module; a skeleton has either or both. `deferred`: a second device module
// whose kernels run only in some runs (ivm: the open work of a stop), compiled through
// the same cache when a run first needs it rather than before every first search
// (runtime/compile/deferred_module.hpp; `permjit emit --unit deferred` prints it).
struct SkeletonUnits {
  std::optional<CompileUnit> host, device, deferred;
};

// What a registry row builds its units from.
struct UnitInputs {
  std::string_view skeleton;  // the row's name: units are named after it
  const ProblemSpec& spec;
  const ProblemSource& source;
  const SolveOptions& opts;
};

// The prelude, the problem, `generated` parts and `templates` (names of embedded
// templates/ files), each behind a #line that names it, so compiler messages say which part.
std::string assemble_unit(const ProblemSource& problem, const std::vector<std::string>& templates,
                          const std::vector<ProblemSource>& generated = {});

// A unit of the problem and `templates` for the host compiler, or for NVRTC with
// `options`, named "<spec>.<skeleton>.cpp" or ".cu".
CompileUnit host_unit(const UnitInputs& in, std::vector<std::string> templates);
CompileUnit device_unit(const UnitInputs& in, std::vector<std::string> templates, std::vector<std::string> options,
                        const std::vector<ProblemSource>& generated = {});

// The host search of placement problems (templates/cpu_dfs.hpp) with its entry points
// (cpu_entries.hpp) and local search (cpu_improve.hpp): the cpu skeleton, and the
// frontier of the GPU skeletons that start from one.
std::vector<std::string> cpu_search_templates();
// Its machinery alone, for a unit with entry points of its own (offload's pool).
std::vector<std::string> cpu_search_machinery();
// The host IDA* of path problems (templates/cpu_ida.hpp): the cpu skeleton, and the
// upper tree of the ida skeletons.
std::vector<std::string> cpu_ida_templates();

}  // namespace permjit
