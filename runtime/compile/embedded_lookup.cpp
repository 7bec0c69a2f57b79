#include <string>

#include "dsl/diagnostics.hpp"
#include "runtime/compile/embedded.hpp"

namespace permjit::embedded {

std::string_view get(std::string_view name) {
  for (const auto& f : files())
    if (f.name == name) return f.text;
  PJ_INTERNAL_ASSERT(false, "template not embedded: " + std::string(name));
}

}  // namespace permjit::embedded
