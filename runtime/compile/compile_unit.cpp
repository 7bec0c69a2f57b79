#include "runtime/compile/compile_unit.hpp"

#include <cstdlib>
#include <sstream>

#include "generator/code_writer.hpp"
#include "runtime/compile/device_fault_hook.hpp"
#include "runtime/compile/embedded.hpp"

namespace permjit {

namespace {
void append_part(std::string& unit, const std::string& name, std::string_view text) {
  unit += "#line 1 " + quote_path(name) + "\n";
  unit += text;
  if (!unit.empty() && unit.back() != '\n') unit += '\n';
}
}  // namespace

std::string assemble_unit(const ProblemSource& problem, const std::vector<std::string>& templates,
                          const std::vector<ProblemSource>& generated) {
  std::string unit = "// permjit translation unit: prelude, problem '" + problem.name + "', skeleton\n";
  append_part(unit, "templates/prelude.h", embedded::get("prelude.h"));
  append_part(unit, "templates/pair_reductions.h", embedded::get("pair_reductions.h"));
  append_part(unit, "templates/pair_dual.h", embedded::get("pair_dual.h"));
  append_part(unit, "templates/pair_dual_block.h", embedded::get("pair_dual_block.h"));
  append_part(unit, "templates/lagrange_bounds.h", embedded::get("lagrange_bounds.h"));
  for (const auto& t : problem.headers) append_part(unit, "templates/" + t, embedded::get(t));  // spec-independent
  append_part(unit, problem.name, problem.text);
  for (const auto& t : problem.templates) append_part(unit, "templates/" + t, embedded::get(t));  // spec-independent
  for (const auto& g : generated) append_part(unit, g.name, g.text);
  for (const auto& t : templates) append_part(unit, "templates/" + t, embedded::get(t));
  return unit;
}

CompileUnit host_unit(const UnitInputs& in, std::vector<std::string> templates) {
  CompileUnit u;
  u.target = UnitTarget::host;
  u.name = in.spec.name + "." + std::string(in.skeleton) + ".cpp";
  u.text = assemble_unit(in.source, templates);
  u.templates = std::move(templates);
  u.data = in.source.data;
  return u;
}

CompileUnit device_unit(const UnitInputs& in, std::vector<std::string> templates, std::vector<std::string> options,
                        const std::vector<ProblemSource>& generated) {
  CompileUnit u;
  u.target = UnitTarget::device;
  u.name = in.spec.name + "." + std::string(in.skeleton) + ".cu";
  u.text = assemble_unit(in.source, templates, generated);
  u.templates = std::move(templates);
  for (const auto& g : generated) u.generated.push_back(g.name);
  u.options = std::move(options);
  // Sets of more than 64 values are unsigned __int128 (generator/emit_layout.cpp), which
  // NVRTC takes in device code only when asked; other units keep their options.
  if (in.spec.set_bits == 128) u.options.push_back("--device-int128");
  for (auto& o : device_fault_hook_options()) u.options.push_back(std::move(o));  // a test hook; none otherwise
  // PERMJIT_NVRTC_SPLIT=N: NVRTC's --split-compile=N for every unit, for measuring (it
  // replaces a skeleton's own choice; 1: one thread).
  if (const char* n = std::getenv("PERMJIT_NVRTC_SPLIT"); n && *n) {
    std::erase_if(u.options, [](const std::string& o) { return o.starts_with("--split-compile="); });
    u.options.push_back("--split-compile=" + std::to_string(std::atoi(n)));
  }
  // PERMJIT_NVRTC_OPTIONS: more NVRTC options for every device unit, separated by spaces
  // (for diagnosing: "-G" compiles without optimisation). They are part of the cache key.
  if (const char* extra = std::getenv("PERMJIT_NVRTC_OPTIONS"); extra && *extra) {
    std::istringstream words(extra);
    for (std::string w; words >> w;) u.options.push_back(w);
  }
  u.data = in.source.data;
  return u;
}

std::vector<std::string> cpu_search_machinery() {
  return {"cpu_abi.h", "host_deadline.hpp", "host_threads.hpp", "host_memory.hpp", "cpu_work_pool.hpp", "cpu_dfs.hpp"};
}
std::vector<std::string> cpu_search_templates() {
  std::vector<std::string> t = cpu_search_machinery();
  t.insert(t.end(), {"cpu_entries.hpp", "host_rng.h", "cpu_improve.hpp"});
  return t;
}
std::vector<std::string> cpu_ida_templates() { return {"ida_abi.h", "host_deadline.hpp", "cpu_ida.hpp", "cpu_pdb.hpp"}; }

}  // namespace permjit
