// The pattern databases of a path problem at run time: each table loaded from the
// module cache, or built by the compiled module (templates/cpu_pdb.hpp) and stored
// there (keyed by the host module's source, which holds the patterns and the moves,
// the table's number and the goal). A cached file is trusted only when its content
// hash and its length match; otherwise it is rebuilt. Memory is checked before a build:
// a table that does not fit is a user error at its pattern in the spec.
#pragma once
#include <string>
#include <vector>

#include "dsl/spec.hpp"
#include "runtime/compile/cache.hpp"
#include "runtime/compile/ida_module.hpp"
#include "runtime/core/result.hpp"

namespace permjit {

class PatternTables {
 public:
  // Loads or builds every table of the spec (none when it has no databases) and hands
  // them to `module`. `key_source`: the host unit's text.
  PatternTables(const ProblemSpec& spec, const IdaModule& module, const std::string& key_source,
                const ModuleCache& cache, int threads);
  bool empty() const { return tables_.empty(); }
  const std::vector<std::vector<unsigned char>>& tables() const { return tables_; }
  const SolveResult::PatternDbs& stage() const { return stage_; }

 private:
  std::vector<std::vector<unsigned char>> tables_;
  SolveResult::PatternDbs stage_;
};

// Bytes of memory available for building (MemAvailable; PERMJIT_PDB_MEMORY overrides
// it, for tests of the check).
unsigned long long pdb_memory_available();

}  // namespace permjit
