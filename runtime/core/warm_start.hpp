// An incumbent before a GPU search (issue "two ends on the GPU", item 3): for a
// minimize or maximize problem solved by a GPU skeleton without --ub, the `cpu`
// skeleton searches for a short time (--warm-start seconds) on the host threads, in the
// background while the GPU module compiles; if it did not finish, local search from its
// best leaf follows for as long again (templates/cpu_improve.hpp), and the best leaf
// becomes the GPU search's starting incumbent. Generic: it needs nothing but the spec.
// The GPU search then reports only better leaves; if it finds none, the warm start's
// solution is the answer (the GPU search proved that nothing is better).
//
// Beside the search: for a skeleton that takes leaves found outside it (Skeleton::
// outside_leaves: `offload`, whose host threads mostly wait for the device, and `ivm`,
// whose exchange hands incumbents between rounds), the local search goes on while the
// search runs, on a quarter of the host threads, from the warm start's leaf; each better
// leaf it finds is offered to the search as its incumbent (better_than), and it starts
// over from the search's better leaves (restart_from), until finish(). A search with
// --ub, a fixed tree, has none of this.
#pragma once
#include <condition_variable>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "dsl/spec.hpp"
#include "runtime/core/result.hpp"

namespace permjit {

struct SolveOptions;

struct WarmIncumbent {
  long long value = 0;
  std::vector<int> permutation;  // in the search's order of the positions, as the skeletons hold one
};

class WarmStart {
 public:
  // Whether a solve with these options gets a warm start.
  static bool wanted(const SolveOptions& opts, const ProblemSpec& spec, bool gpu_skeleton);
  // The host threads the local search beside a search takes: a quarter of the search's.
  static int beside_threads(const SolveOptions& opts);

  // Starts the cpu search of `spec` (the search's spec: its order of the positions is the
  // one the incumbent is handed over in), which must outlive this. With `beside`, the
  // local search goes on after it, until finish().
  WarmStart(const SolveOptions& opts, const ProblemSpec& spec, bool beside);
  ~WarmStart();  // finish()
  WarmStart(const WarmStart&) = delete;
  WarmStart& operator=(const WarmStart&) = delete;

  // Waits for the cpu search and its local search; its best leaf, if it found one. A
  // failure of the warm start (it is an optimisation, not the search) leaves no
  // incumbent and a note.
  const std::optional<WarmIncumbent>& wait();
  // The best leaf known now, if it is better than `value`: the local search beside the
  // search may have improved on wait()'s. Thread-safe.
  std::optional<WarmIncumbent> better_than(long long value) const;
  std::optional<WarmIncumbent> best_known() const;  // the same, whatever its value
  // A leaf the search found (permutation, value): if it is better than every leaf known,
  // it is kept and the local search beside the search starts over from it. Thread-safe.
  void restart_from(std::span<const int> perm, long long value);
  // Stops the local search beside the search and waits for it; then better_than() is final.
  void finish();

  double seconds() const { return seconds_; }        // the cpu search's wall time, compile included
  double waited() const { return waited_; }          // how long the first wait() blocked its caller
  bool complete() const { return complete_; }        // it finished: its best is the optimum
  const std::string& failure() const { return failure_; }
  // The local search that followed the cpu search, if it ran.
  const std::optional<SolveResult::ImproveReport>& improve() const { return improve_; }
  // The local search beside the search, after finish(), if it ran.
  const std::optional<SolveResult::BesideReport>& beside() const { return beside_; }

 private:
  void search_beside(const SolveOptions& fresh, int threads);
  bool better(long long a, long long b) const { return goal_ == Goal::maximize ? a > b : a < b; }
  // Under lock_: keeps the leaf if it is better than every one known; true if it was.
  bool offer_locked(std::span<const int> perm, long long value);

  Goal goal_;
  std::thread thread_;
  mutable std::mutex lock_;          // guards ready_, latest_, and stop_ and restart_'s writes
  std::condition_variable ready_cv_;
  bool ready_ = false;               // the first phase ended: best_ and the reports are set
  bool waited_once_ = false;
  std::optional<WarmIncumbent> best_;    // the first phase's leaf (what wait() returns)
  std::optional<WarmIncumbent> latest_;  // the best leaf known, beside the search included
  volatile int stop_ = 0;                // finish(): the local search beside the search ends
  volatile int restart_ = 0;             // restart_from(): its chains end, to start from latest_
  double seconds_ = 0;
  double waited_ = 0;
  bool complete_ = false;
  std::string failure_;
  std::optional<SolveResult::ImproveReport> improve_;
  std::optional<SolveResult::BesideReport> beside_;
};

}  // namespace permjit
