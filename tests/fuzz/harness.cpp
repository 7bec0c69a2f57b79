// A libFuzzer harness: PERMJIT_FUZZ_ENTRY names the function of fuzz_entries.hpp it
// feeds (tests/fuzz/CMakeLists.txt builds one executable per entry).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tests/fuzz/fuzz_entries.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  permjit::fuzz::PERMJIT_FUZZ_ENTRY(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
