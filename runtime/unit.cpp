#include "runtime/unit.hpp"

#include "generator/code_writer.hpp"
#include "runtime/embedded.hpp"

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
  append_part(unit, problem.name, problem.text);
  for (const auto& g : generated) append_part(unit, g.name, g.text);
  for (const auto& t : templates) append_part(unit, "templates/" + t, embedded::get(t));
  return unit;
}

}  // namespace permjit
