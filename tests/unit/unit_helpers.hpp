// Shared helpers of the unit tests: temporary spec/instance files and loading them.
#pragma once
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "dsl/diagnostics.hpp"
#include "dsl/load_spec.hpp"

namespace permjit::unit {

// A file under the system temp directory, removed when the object goes away.
class TempFile {
 public:
  TempFile(const std::string& name, const std::string& text) {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("permjit_unit_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + "_" + name);
    std::ofstream out(path_, std::ios::binary);
    out << text;
  }
  ~TempFile() {
    std::error_code ec;
    std::filesystem::remove(path_, ec);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

// Loads and expects user errors; returns them (empty after a FAIL when it loaded).
inline Diagnostics load_errors(const LoadOptions& opts) {
  try {
    load_spec(opts);
  } catch (const UserErrors& e) {
    return e.diags;
  }
  FAIL("load_spec accepted a spec that should have been rejected");
  return {};
}

// A spec text written to a temp file, loaded with the given params / instance text.
inline Diagnostics spec_errors(const std::string& toml, std::vector<std::string> params = {},
                               const std::string& instance_text = "") {
  TempFile spec("spec.toml", toml);
  LoadOptions o;
  o.spec_path = spec.path();
  o.params = std::move(params);
  std::unique_ptr<TempFile> inst;
  if (!instance_text.empty()) {
    inst = std::make_unique<TempFile>("instance.txt", instance_text);
    o.instance_path = inst->path();
  }
  return load_errors(o);
}

// Loads a spec that must load; a user error fails the test with the messages.
inline ProblemSpec load_ok(const LoadOptions& o) {
  try {
    return load_spec(o);
  } catch (const UserErrors& e) {
    FAIL(e.diags.render());
    throw;
  }
}

// A spec text written to a temp file and loaded (no instance); it must load.
inline ProblemSpec load_text(const std::string& toml) {
  TempFile f("spec.toml", toml);
  LoadOptions o;
  o.spec_path = f.path();
  return load_ok(o);
}

// A count spec over params only (n = 4), with the given [derived] section from line 7.
inline std::string spec_with_derived(const std::string& derived) {
  return "[problem]\n"         // 1
         "name = \"t\"\n"      // 2
         "goal = \"count\"\n"  // 3
         "size = \"n\"\n"      // 4
         "[params]\n"          // 5
         "n = 4\n"             // 6
         "[derived]\n" +       // 7
         derived + "[branch]\n";
}

// Errors only (notes left out), in the order they were reported.
inline std::vector<Diagnostic> errors_of(const Diagnostics& d) {
  std::vector<Diagnostic> out;
  for (const auto& x : d.all())
    if (x.kind == Diagnostic::Kind::error) out.push_back(x);
  return out;
}

// The first error whose message contains `needle`, or nullptr.
inline const Diagnostic* find_error(const Diagnostics& d, const std::string& needle) {
  for (const auto& x : d.all())
    if (x.kind == Diagnostic::Kind::error && x.message.find(needle) != std::string::npos) return &x;
  return nullptr;
}

// Checks a diagnostic's place (line, column) and that its message contains `text`.
inline void check_at(const Diagnostic& d, int line, int col, const std::string& text) {
  INFO(render(d));
  CHECK(d.loc.line == line);
  CHECK(d.loc.col == col);
  CHECK_THAT(d.message, Catch::Contains(text));
}

}  // namespace permjit::unit
