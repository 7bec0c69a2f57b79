// Paths the tests use, set by tests/CMakeLists.txt.
#pragma once
#include <string>

namespace permjit::test {
inline std::string source_dir() { return PERMJIT_SOURCE_DIR; }
inline std::string problem(const std::string& name) { return source_dir() + "/problems/" + name; }
inline std::string instance(const std::string& rel) { return std::string(PERMJIT_INSTANCES_DIR) + "/" + rel; }
inline std::string cache_dir() { return PERMJIT_TEST_CACHE_DIR; }
}  // namespace permjit::test
