// Compiles a translation unit with the host C++ compiler into a shared object, through
// the module cache. A failed compile keeps its source and log for the user to read.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/compile/cache.hpp"
#include "runtime/compile/compile_unit.hpp"

namespace permjit {

struct CompileError : std::runtime_error {
  std::string log;
  std::string saved_source;  // where the failing unit was written
  CompileError(std::string what, std::string l, std::string saved)
      : std::runtime_error(std::move(what)), log(std::move(l)), saved_source(std::move(saved)) {}
};

struct HostModule {
  std::string path;
  bool cache_hit = false;
  double seconds = 0;  // the cache lookup and, on a miss, the host compiler
  std::vector<RunTimeArray> data;  // what the loader writes into it (CompileUnit::data)
};

// The compiler ($PERMJIT_CXX or c++) and its flags, as they enter the cache key.
std::string host_compiler();
std::string host_compiler_flags();
std::string host_compiler_identity();  // version line, flags and CPU model

HostModule compile_host_module(const std::string& unit, const ModuleCache& cache);
// The same for a unit of a skeleton: the module keeps the unit's run-time data.
HostModule compile_host_module(const CompileUnit& unit, const ModuleCache& cache);

}  // namespace permjit
