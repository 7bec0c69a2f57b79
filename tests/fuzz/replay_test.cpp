// Every input of tests/fuzz/corpus/ (the seeds and each input a fuzzer found a bug
// with) through the harnesses' entry functions, in the normal build: an input that
// once crashed stays checked without clang or libFuzzer.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "tests/fuzz/fuzz_entries.hpp"
#include "tests/test_paths.hpp"

namespace fs = std::filesystem;

TEST_CASE("every corpus input is accepted or refused as a user error", "[fuzz]") {
  for (const auto& entry : permjit::fuzz::entries()) {
    const fs::path dir = fs::path(permjit::test::source_dir()) / "tests/fuzz/corpus" / entry.name;
    int inputs = 0;
    for (const auto& f : fs::directory_iterator(dir)) {
      std::ifstream in(f.path(), std::ios::binary);
      const std::string bytes(std::istreambuf_iterator<char>(in), {});
      INFO(f.path().string());
      CHECK_NOTHROW(entry.run(bytes));
      ++inputs;
    }
    INFO(dir.string());
    CHECK(inputs > 0);
  }
}
