// An incumbent before a GPU search (issue "two ends on the GPU", item 3): for a
// minimize or maximize problem solved by a GPU skeleton without --ub, the `cpu`
// skeleton searches for a short time (--warm-start seconds) on the host threads, in the
// background while the GPU module compiles; if it did not finish, local search from its
// best leaf follows for as long again (templates/cpu_improve.hpp), and the best leaf
// becomes the GPU search's starting incumbent. Generic: it needs nothing but the spec.
// The GPU search then reports only better leaves; if it finds none, the warm start's
// solution is the answer (the GPU search proved that nothing is better).
#pragma once
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "runtime/core/result.hpp"

namespace permjit {

struct SolveOptions;
struct ProblemSpec;

struct WarmIncumbent {
  long long value = 0;
  std::vector<int> permutation;  // in the search's order of the positions, as the skeletons hold one
};

class WarmStart {
 public:
  // Whether a solve with these options gets a warm start.
  static bool wanted(const SolveOptions& opts, const ProblemSpec& spec, bool gpu_skeleton);

  // Starts the cpu search of `spec` (the search's spec: its order of the positions is the
  // one the incumbent is handed over in), which must outlive this.
  WarmStart(const SolveOptions& opts, const ProblemSpec& spec);
  ~WarmStart();
  WarmStart(const WarmStart&) = delete;
  WarmStart& operator=(const WarmStart&) = delete;

  // Waits for the cpu search; its best leaf, if it found one. A failure of the warm
  // start (it is an optimisation, not the search) leaves no incumbent and a note.
  const std::optional<WarmIncumbent>& wait();
  double seconds() const { return seconds_; }        // the cpu search's wall time, compile included
  double waited() const { return waited_; }          // how long the first wait() blocked its caller
  bool complete() const { return complete_; }        // it finished: its best is the optimum
  const std::string& failure() const { return failure_; }
  // The local search that followed the cpu search, if it ran.
  const std::optional<SolveResult::ImproveReport>& improve() const { return improve_; }

 private:
  std::thread thread_;
  bool joined_ = false;
  std::optional<WarmIncumbent> best_;
  double seconds_ = 0;
  double waited_ = 0;
  bool complete_ = false;
  std::string failure_;
  std::optional<SolveResult::ImproveReport> improve_;
};

}  // namespace permjit
