#include "runtime/compile/host_compiler.hpp"

#include "dsl/diagnostics.hpp"

#include <chrono>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "runtime/compile/elf_complete.hpp"
#include "runtime/core/solve_options.hpp"  // SearchInterrupted
#include "runtime/core/version.hpp"

namespace permjit {

namespace {

void signal_default(int sig) {
  struct sigaction sa {};
  sa.sa_handler = SIG_DFL;
  sigemptyset(&sa.sa_mask);
  sigaction(sig, &sa, nullptr);
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// SIGINT or SIGTERM received while a command runs (0: none).
volatile std::sig_atomic_t g_signal = 0;
void note_signal(int sig) { g_signal = sig; }

// SIGINT and SIGTERM noted instead of ending the process, for the life of the object.
// A compile ended by them used to leave the compiler's processes running (a `kill` of
// permjit reaches permjit alone) and its temporary files in the module cache for good.
class NoteSignals {
 public:
  NoteSignals() {
    g_signal = 0;
    struct sigaction sa {};
    sa.sa_handler = note_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;  // no SA_RESTART: read() returns EINTR, and the loop looks
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~NoteSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

// Runs a command through /bin/sh in a process group of its own; returns its exit
// status and its output (stdout and stderr), or -1. On SIGINT or SIGTERM the whole
// group is ended and waited for, and `*signal` says which came.
int run_command(const std::string& cmd, std::string& output, int* signal = nullptr) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  NoteSignals noting;
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return -1;
  }
  if (pid == 0) {
    setpgid(0, 0);
    signal_default(SIGINT);
    signal_default(SIGTERM);
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    close(fds[0]);
    close(fds[1]);
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  setpgid(pid, pid);  // also here: the child may not have run yet
  close(fds[1]);
  char buf[4096];
  for (;;) {
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n > 0) {
      output.append(buf, static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR && !g_signal) continue;
    if (g_signal) kill(-pid, SIGTERM);
    break;
  }
  close(fds[0]);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  if (g_signal) {
    kill(-pid, SIGKILL);  // what the shell left behind in the group, if anything
    if (signal) *signal = g_signal;
    return -1;
  }
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
    cache.drop(key, ".so");  // cut short, summed again: compiled anew (runtime/compile/elf_complete.hpp)
  }
  std::string src = cache.temp_path(".cpp");
  std::string obj = cache.temp_path(".so");
  if (!write_file_atomic(src, unit))
    throw CompileError("cannot write to the cache directory " + cache.dir(), "", "");
  std::string log;
  std::string cmd = shell_quote(host_compiler()) + " " + host_compiler_flags() + " -o " + shell_quote(obj) + " " +
                    shell_quote(src);
  int signal = 0;
  int status = run_command(cmd, log, &signal);
  if (signal) {
    // Stopped by the user during the compile: the compiler's processes are ended and the
    // temporary files go; then the signal goes to the handler from before the compile:
    // the default one of the command line ends the process by it, as it did before. A
    // program that embeds permjit keeps its own, and the solve ends here if it returns.
    std::error_code ec;
    std::filesystem::remove(src, ec);
    std::filesystem::remove(obj, ec);
    std::raise(signal);
    throw SearchInterrupted("stopped by signal " + std::to_string(signal) + " while the module compiled", signal);
  }
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
