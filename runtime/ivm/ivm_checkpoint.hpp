// Checkpoints of the `ivm` skeleton: the explorers' IVMs (their intervals and where
// they stand in them), the incumbent and the counters, written atomically so that a
// run killed at any moment leaves the previous checkpoint or the new one, never half
// of one. Because every node is counted by the interval that holds its first leaf
// (templates/ivm_explorer.h), a resumed run redoes the work done after the checkpoint
// but counts it once: its totals equal an uninterrupted run's whenever the incumbent
// cannot change (counting, or --ub at the optimum).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "generator/generate.hpp"
#include "runtime/distributed/checkpoint_fields.hpp"  // checkpoint_checksum, source_identity

namespace permjit {

// What must match for a checkpoint to continue a run.
struct IvmRunIdentity {
  std::string version;       // permjit's
  std::string problem;       // for messages
  std::string spec_path, instance_path;
  std::string source;        // source_identity() of the generated problem and layout
  int levels = 0;
  unsigned long long explorers = 0;
  int mask_bytes = 0;
  std::string goal;
  std::string ub;            // "none" or the --ub value
};

struct IvmCheckpoint {
  IvmRunIdentity id;
  double elapsed = 0;            // search seconds before this checkpoint, all runs
  unsigned long long rounds = 0;
  std::string results;           // the device's results block (templates/gpu_abi.h)
  std::string state;             // the explorers' arrays as laid out on the device
  // Written by a stopped search once it has bounded its open work: every leaf the state
  // leaves unsearched is at least this, or at least the incumbent (docs/reliability.md,
  // "Partial answers"). A resumed run's bound starts from it.
  std::optional<long long> open_floor;
};

// Throws std::runtime_error naming the file if it cannot be written.
void write_checkpoint(const std::string& path, const IvmCheckpoint& c);
// Throws std::runtime_error naming the file: unreadable, not a checkpoint, damaged.
IvmCheckpoint read_checkpoint(const std::string& path);
// The same from the file's bytes; `path` names it in messages (the fuzz harness and
// its replay test call this).
IvmCheckpoint parse_checkpoint(const std::string& file, const std::string& path);
// Why `saved` cannot continue the run `now` (one line per difference), or empty.
std::string resume_mismatch(const IvmRunIdentity& saved, const IvmRunIdentity& now);

}  // namespace permjit
