// A compiled host module (compile_host_module) opened with dlopen: the one loader of
// the four kinds of host module (the cpu skeleton's, the IDA* one's, the offload one's and
// `check --verify-bound`'s). It checks the module's ABI function, writes the module's
// run-time data (runtime/device/run_time_data.hpp) and closes the object with itself; each
// kind names its entry points with entry<F>(name). A module that does not match this
// permjit (an ABI number or an entry point missing) is an error naming its file, never
// a call through a null pointer.
#pragma once
#include <string>

#include "runtime/compile/host_compiler.hpp"

namespace permjit {

class HostLibrary {
 public:
  // `kind` names the module in messages ("IDA" -> "(IDA ABI)"); `abi_symbol` is its
  // `int f(void)` that must return `abi`. Throws std::runtime_error naming the file.
  HostLibrary(const HostModule& compiled, const std::string& kind, const char* abi_symbol, int abi);
  ~HostLibrary();
  HostLibrary(const HostLibrary&) = delete;
  HostLibrary& operator=(const HostLibrary&) = delete;

  // A function the module must define; throws (as above) when it is missing.
  template <class F>
  F entry(const char* name) const {
    return reinterpret_cast<F>(required(name));
  }
  // A symbol the module may define (null when it does not).
  void* optional_symbol(const char* name) const;
  const std::string& path() const { return path_; }
  void* handle() const { return handle_; }

 private:
  void* required(const char* name) const;

  std::string path_;
  std::string kind_;
  void* handle_ = nullptr;
};

}  // namespace permjit
