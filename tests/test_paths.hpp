// Paths the tests use, set by tests/CMakeLists.txt.
// The environment may move them (PERMJIT_SOURCE_DIR, PERMJIT_INSTANCES_DIR,
// PERMJIT_TEST_CACHE_DIR), e.g. when the test binaries run on another machine.
#pragma once
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace permjit::test {
inline std::string from_env(const char* name, const char* built_in) {
  const char* v = std::getenv(name);
  return v && *v ? v : built_in;
}
inline std::string source_dir() { return from_env("PERMJIT_SOURCE_DIR", PERMJIT_SOURCE_DIR); }
inline std::string problem(const std::string& name) { return source_dir() + "/problems/" + name; }
inline std::string instance(const std::string& rel) {
  return from_env("PERMJIT_INSTANCES_DIR", PERMJIT_INSTANCES_DIR) + "/" + rel;
}
inline std::string cache_dir() { return from_env("PERMJIT_TEST_CACHE_DIR", PERMJIT_TEST_CACHE_DIR); }
// Where tests write their files: below the test cache, which is the build tree's, so
// that two checkouts testing at once on one machine do not share a /tmp folder.
inline std::string scratch_dir(const std::string& name) { return cache_dir() + "/scratch/" + name; }

// A folder of this process alone, removed when it exits. ctest runs each test case in
// its own process, and `ctest -j` runs several at once: two tests that wrote the same
// scratch name read each other's files ("the file ends too early"). Every file a test
// writes for itself goes here.
inline const std::string& own_scratch_dir() {
  struct Folder {
    std::string path = scratch_dir("pid-" + std::to_string(::getpid()));
    Folder() { std::filesystem::create_directories(path); }
    ~Folder() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  };
  static const Folder folder;
  return folder.path;
}
}  // namespace permjit::test
