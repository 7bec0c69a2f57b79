// A test hook: PERMJIT_TEST_DEVICE_FAULT=N compiles every device unit with
// -DPJ_TEST_DEVICE_FAULT=N, which makes the N-th launch of a search kernel trap
// (templates/prelude.h, PJ_TEST_FAULT_POINT). Tests use it to provoke a real device
// fault in each GPU skeleton and check what a user then sees (tests/gpu/device_fault_test.py).
// The option is part of the module's cache key and not of the generated source, so a
// checkpoint written by a faulting run is resumed by a clean one.
#pragma once
#include <string>
#include <vector>

namespace permjit {

// The NVRTC options the hook adds: none when the variable is unset or empty. A value
// that is not a launch number (1 to 2^31 - 1) is an error naming the variable.
std::vector<std::string> device_fault_hook_options();

}  // namespace permjit
