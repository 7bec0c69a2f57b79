// The device-fault test hook's variable (runtime/compile/device_fault_hook.hpp): a launch
// number becomes one NVRTC option; anything else is a user error naming the variable.
#include <catch2/catch.hpp>
#include <cstdlib>

#include "dsl/diagnostics.hpp"
#include "runtime/compile/device_fault_hook.hpp"

using namespace permjit;

namespace {
struct HookVariable {
  explicit HookVariable(const char* value) { setenv("PERMJIT_TEST_DEVICE_FAULT", value, 1); }
  ~HookVariable() { unsetenv("PERMJIT_TEST_DEVICE_FAULT"); }
};
}  // namespace

TEST_CASE("the device-fault hook adds its option only when set", "[unit][fault]") {
  unsetenv("PERMJIT_TEST_DEVICE_FAULT");
  CHECK(device_fault_hook_options().empty());
  {
    HookVariable v("");
    CHECK(device_fault_hook_options().empty());
  }
  HookVariable v("12");
  CHECK(device_fault_hook_options() == std::vector<std::string>{"-DPJ_TEST_DEVICE_FAULT=12"});
}

TEST_CASE("a device-fault hook value that is not a launch number is refused with the variable's name",
          "[unit][fault]") {
  for (const char* bad : {"0", "-1", "x", "3x", "99999999999"}) {
    INFO(bad);
    HookVariable v(bad);
    try {
      device_fault_hook_options();
      FAIL("accepted");
    } catch (const UserErrors& e) {
      CHECK(std::string(e.what()).find("PERMJIT_TEST_DEVICE_FAULT") != std::string::npos);
      CHECK(std::string(e.what()).find("the number of the launch that faults") != std::string::npos);
      // The place is the value, after "PERMJIT_TEST_DEVICE_FAULT=" (26 characters).
      CHECK(std::string(e.what()).find("<command line>:1:27: error:") != std::string::npos);
    }
  }
}
