#include "runtime/host_compiler.hpp"

#include "dsl/diagnostics.hpp"

#include <chrono>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "runtime/elf_complete.hpp"
#include "runtime/version.hpp"

namespace permjit {

namespace {

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs a command, returns its exit status and its output (stdout and stderr).
int run_command(const std::string& cmd, std::string& output) {
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return -1;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) output.append(buf, n);
  int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) return line;
  return "unknown cpu";
}

}  // namespace

std::string host_compiler() {
  const char* c = std::getenv("PERMJIT_CXX");
  return c && *c ? c : "c++";
}

std::string host_compiler_flags() { return "-std=c++17 -O3 -march=native -fPIC -shared -pthread -w"; }

std::string host_compiler_identity() {
  static const std::string id = [] {
    std::string out;
    run_command(shell_quote(host_compiler()) + " --version", out);
    return out.substr(0, out.find('\n')) + " | " + host_compiler_flags() + " | " + cpu_model();
  }();
  return id;
}

HostModule compile_host_module(const std::string& unit, const ModuleCache& cache) {
  const auto t0 = std::chrono::steady_clock::now();
  auto since = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  std::string key = cache_key({"cpu-module", kPermjitVersion, host_compiler_identity(), unit});
  if (auto hit = cache.lookup(key, ".so")) {
    if (elf_complete(*hit)) return HostModule{*hit, true, since()};
    cache.drop(key, ".so");  // cut short, summed again: compiled anew (runtime/elf_complete.hpp)
  }
  std::string src = cache.temp_path(".cpp");
  std::string obj = cache.temp_path(".so");
  if (!write_file_atomic(src, unit))
    throw CompileError("cannot write to the cache directory " + cache.dir(), "", "");
  std::string log;
  std::string cmd = shell_quote(host_compiler()) + " " + host_compiler_flags() + " -o " + shell_quote(obj) + " " +
                    shell_quote(src);
  int status = run_command(cmd, log);
  if (status != 0) {
    std::string saved = cache.dir() + "/failed-" + key + ".cpp";
    std::error_code ec;
    std::filesystem::rename(src, saved, ec);
    std::filesystem::remove(obj, ec);
    throw CompileError("the host compiler failed on the generated code (exit " + std::to_string(status) + ")", log,
                       ec ? src : saved);
  }
  std::error_code ec;
  std::filesystem::remove(src, ec);
  std::string stored = cache.store(key, ".so", obj);
  return HostModule{stored, false, since()};
}

HostModule compile_host_module(const CompileUnit& unit, const ModuleCache& cache) {
  PJ_INTERNAL_ASSERT(unit.target == UnitTarget::host, "compile_host_module needs a host unit");
  HostModule m = compile_host_module(unit.text, cache);
  m.data = unit.data;
  return m;
}

}  // namespace permjit
