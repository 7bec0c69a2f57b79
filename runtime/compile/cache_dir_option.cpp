#include "runtime/compile/cache_dir_option.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "dsl/diagnostics.hpp"

namespace permjit {

namespace {

// Why `dir` cannot hold the cache, or empty.
std::string unusable(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return ec.message();
  if (!std::filesystem::is_directory(dir, ec)) return "not a directory";
  if (::access(dir.c_str(), W_OK | X_OK) != 0) return std::strerror(errno);
  return {};
}

// Where the default folder came from: the first of these variables that is set.
std::string default_source() {
  for (const char* v : {"PERMJIT_CACHE_DIR", "XDG_CACHE_HOME", "HOME"})
    if (const char* x = std::getenv(v); x && *x) return std::string(v) + "=" + x;
  return {};
}

}  // namespace

ModuleCache open_module_cache(const std::string& option) {
  const std::string dir = option.empty() ? default_cache_dir() : option;
  const std::string why = unusable(dir);
  if (why.empty()) return ModuleCache(dir);
  const std::string message = "cannot keep compiled modules in '" + dir + "': " + why;
  if (!option.empty()) command_line_error("--cache-dir " + option, 13, message, "name a folder you can write to");
  const std::string source = default_source();
  command_line_error(source.empty() ? "--cache-dir" : source, source.empty() ? 1 : static_cast<int>(source.find('=')) + 2,
                     message, "give --cache-dir DIR, or set PERMJIT_CACHE_DIR to a folder you can write to");
}

}  // namespace permjit
