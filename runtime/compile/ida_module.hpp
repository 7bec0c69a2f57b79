// A compiled path-problem module (templates/cpu_ida.hpp), loaded: the CPU IDA* search,
// and the upper tree whose roots the GPU IDA* skeletons search.
#pragma once
#include "runtime/compile/host_compiler.hpp"
#include "runtime/compile/host_library.hpp"
#include <string>
#include <vector>

#include "dsl/start_data.hpp"
#include "templates/ida_abi.h"

namespace permjit {

// Start data as a module takes it (PjIdaStart): views of the values this object keeps.
class IdaStart {
 public:
  explicit IdaStart(StartValues values);
  IdaStart(const IdaStart&) = delete;
  IdaStart& operator=(const IdaStart&) = delete;
  const PjIdaStart& get() const { return s_; }

 private:
  StartValues values_;
  std::vector<const int*> data_;
  std::vector<int> lengths_;
  PjIdaStart s_{};
};

class IdaModule {
 public:
  // Loads the compiled module and writes its run-time data; throws std::runtime_error.
  explicit IdaModule(const HostModule& compiled);
  IdaModule(const IdaModule&) = delete;
  IdaModule& operator=(const IdaModule&) = delete;

  PjIdaResult search(const PjIdaArgs& args) const;  // args.start: see IdaStart
  std::string move_name(int m) const { return move_name_(m); }
  // See PjIdaExpandFn: children must have room for kMoves nodes (and child_g, child_last).
  int expand(const void* node, int g, int last, int limit, void* children, int* child_g, int* child_last,
             PjIdaCounts& counts) const {
    int kept = 0;
    expand_(node, g, last, limit, children, child_g, child_last, &kept, &counts);
    return kept;
  }
  // Pattern databases (templates/cpu_pdb.hpp): the module's tables, their entries, one
  // table's build (a PJ_PDB_* code), and the tables the module's heuristic reads (kept
  // alive by the caller).
  int pdb_count() const { return pdb_count_(); }
  unsigned long long pdb_entries(int k) const { return pdb_entries_(k); }
  int build_pdb(int k, const int* goal, unsigned char* table, int threads, PjPdbBuildInfo& info) const {
    return pdb_build_(k, goal, table, threads, &info);
  }
  void set_pdb_tables(const std::vector<const unsigned char*>& tables) const;
  int check_pdb_reflection(const int* goal, int steps, PjPdbBuildInfo& info) const {
    return pdb_check_reflection_(goal, steps, &info);
  }
  // See PjIdaMovesToFn (throws if there is no path).
  std::vector<int> moves_to(const void* from, int g, int last, const void* to, int to_g, int limit) const;

  // The upper tree with at least min_roots roots (fewer if the tree ends); freed with the object.
  class Roots {
   public:
    Roots(const IdaModule& m, const IdaStart& start, unsigned long long min_roots);
    ~Roots();
    Roots(const Roots&) = delete;
    Roots& operator=(const Roots&) = delete;
    const PjIdaRoots& get() const { return r_; }
    // The iteration at `limit` above the roots; alive[i] = 1 for roots to search below.
    PjIdaCounts upper(int limit, std::vector<unsigned char>& alive, long long& upper_goal) const;
    // One path of cost `limit` through `root` (or to `upper_goal` if root < 0).
    std::vector<int> path(long long root, long long upper_goal, int limit) const;
    // One path of cost `limit` through `root`, the moves `via` to `node`, and below it.
    std::vector<int> path_via(long long root, const std::vector<int>& via, const void* node, int g, int last,
                              int limit) const;

   private:
    const IdaModule& m_;
    PjIdaRoots r_{};
  };

 private:
  HostLibrary lib_;
  PjIdaSearchFn search_ = nullptr;
  PjIdaRootsFn roots_ = nullptr;
  PjIdaUpperFn upper_ = nullptr;
  PjIdaPathFn path_ = nullptr;
  PjIdaPathViaFn path_via_ = nullptr;
  PjIdaRootsFreeFn roots_free_ = nullptr;
  PjIdaMoveNameFn move_name_ = nullptr;
  PjIdaExpandFn expand_ = nullptr;
  PjIdaMovesToFn moves_to_ = nullptr;
  PjPdbCountFn pdb_count_ = nullptr;
  PjPdbEntriesFn pdb_entries_ = nullptr;
  PjPdbBuildFn pdb_build_ = nullptr;
  PjPdbCheckReflectionFn pdb_check_reflection_ = nullptr;
};

}  // namespace permjit
