#include "runtime/compile/device_fault_hook.hpp"

#include <climits>
#include <cstdlib>

#include "dsl/diagnostics.hpp"

namespace permjit {

std::vector<std::string> device_fault_hook_options() {
  constexpr const char* kVariable = "PERMJIT_TEST_DEVICE_FAULT";
  const char* env = std::getenv(kVariable);
  if (!env || !*env) return {};
  char* end = nullptr;
  const long long n = std::strtoll(env, &end, 10);
  const std::string shown = std::string(kVariable) + "=" + env;
  if (*end != '\0' || n < 1 || n > INT_MAX)
    command_line_error(shown, static_cast<int>(std::string(kVariable).size()) + 2,
                       "expected the number of the launch that faults, 1 or more",
                       "the variable is a test hook; unset it for a normal run");
  return {"-DPJ_TEST_DEVICE_FAULT=" + std::to_string(n)};
}

}  // namespace permjit
