// The one checkpoint of a `cpu` search run range by range (runtime/distributed/range_run.hpp), in
// one process or many: the frontier's identity (what it was built from), the ranges of
// frontier subtrees searched to their end with their counts summed (and the frontier's
// own counts), and the incumbent. Written atomically (temporary file and rename), so a
// run killed at any moment leaves the previous checkpoint or the new one. A resumed
// run rebuilds the same frontier, searches the ranges left, and adds their counts:
// whatever the number of processes, its totals are an uninterrupted run's whenever the
// incumbent cannot change (counting, or --ub at the optimum).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/distributed/range_schedule.hpp"

namespace permjit {

// What must match for a checkpoint to continue a run: the frontier depends on the
// generated code and data, the goal, the start incumbent and the split depth.
struct RangeRunIdentity {
  std::string version;  // permjit's
  std::string problem;  // for messages
  std::string spec_path, instance_path;
  std::string source;  // source_identity + data_identity (runtime/ivm/ivm_checkpoint.hpp)
  std::string goal;
  std::string ub;        // the start incumbent: "none" or the --ub value
  int split_depth = 0;   // absolute: values placed in each frontier node
  uint64_t frontier_nodes = 0;
};

struct RangeCheckpoint {
  RangeRunIdentity id;
  double elapsed = 0;  // search seconds before this checkpoint, all runs
  // The frontier's counts plus every finished range's.
  uint64_t expanded = 0, evaluated = 0, solutions = 0;
  bool found = false;  // a leaf better than the start incumbent
  long long best = 0;
  std::vector<int> perm;
  std::vector<Range> done;
};

// Throws std::runtime_error naming the file if it cannot be written.
void write_range_checkpoint(const std::string& path, const RangeCheckpoint& c);
// Throws std::runtime_error naming the file: unreadable, not such a checkpoint, damaged.
RangeCheckpoint read_range_checkpoint(const std::string& path);
// Why `saved` cannot continue the run `now` (one line per difference), or empty. The
// split depth and frontier size are the checkpoint's to choose, and not compared.
std::string range_resume_mismatch(const RangeRunIdentity& saved, const RangeRunIdentity& now);

}  // namespace permjit
