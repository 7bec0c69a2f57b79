#include "runtime/compile/host_library.hpp"

#include <dlfcn.h>

#include <stdexcept>

#include "runtime/device/run_time_data.hpp"

namespace permjit {

namespace {
using AbiFn = int (*)(void);
}  // namespace

HostLibrary::HostLibrary(const HostModule& compiled, const std::string& kind, const char* abi_symbol, int abi)
    : path_(compiled.path), kind_(kind) {
  handle_ = dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) throw std::runtime_error("cannot load the compiled module " + path_ + ": " + dlerror());
  // The destructor does not run for a constructor that throws: close the object here.
  try {
    if (entry<AbiFn>(abi_symbol)() != abi) required(nullptr);
    fill_host_data(compiled.data, handle_, path_);
  } catch (...) {
    dlclose(handle_);
    throw;
  }
}

HostLibrary::~HostLibrary() { dlclose(handle_); }

void* HostLibrary::optional_symbol(const char* name) const { return dlsym(handle_, name); }

// A null name stands for the ABI number that did not match.
void* HostLibrary::required(const char* name) const {
  void* at = name ? dlsym(handle_, name) : nullptr;
  if (!at)
    throw std::runtime_error("the compiled module " + path_ + " does not match this permjit (" +
                             (kind_.empty() ? "" : kind_ + " ") + "ABI)");
  return at;
}

}  // namespace permjit
