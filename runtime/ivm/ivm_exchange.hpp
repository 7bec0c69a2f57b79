// The `ivm` skeleton on several GPUs (`--gpus`, or one MPI rank per GPU): what a GPU's
// worker asks of the others, and the one object that answers for all of them.
//
// Work travels as an *image*: the byte image of a GPU's T explorers (the arrays of
// runtime/ivm/ivm_device.hpp, the same bytes a checkpoint holds). A worker whose explorers
// are all empty is *dry* and asks for work; the exchange asks the worker with the most
// leaves left to give, and that worker, at the end of its round, cuts every explorer's
// interval in two (pj_ivm_export) and gives the upper halves as one image. Since a node
// is counted by the explorer whose interval holds its first leaf, cutting intervals
// anywhere keeps the totals exact (docs/skeletons.md, ivm "Counting").
//
// The search ends when every worker is dry and no image waits. A checkpoint is taken
// while no work moves: each worker deposits its image and results at the end of its
// round (a dry one at once), and the images waiting in the pool are saved beside them;
// a resume puts every saved image in the pool, so it runs on any number of GPUs.
#pragma once
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "templates/gpu_abi.h"

namespace permjit {

// What a worker says after each round.
struct IvmRoundReport {
  double remaining = 0;              // leaves its explorers have left (0: dry)
  unsigned long long evaluated = 0;  // its count so far, for progress lines
  int best = 0;                      // its incumbent
  bool hungry = false;               // fewer than half its explorers have work
};

// What it is told back.
struct IvmRoundReply {
  int best = 0;             // the best incumbent of all workers
  bool give = false;        // another worker is dry: export half of the work now
  bool checkpoint = false;  // deposit the image and results now
  bool stop = false;        // the run is over (a signal, or an error elsewhere)
  std::string image;        // a hungry worker's: work for its empty explorers (put back what does not fit)
};

// The other workers, as one worker sees them: the exchange itself in one process, a
// client of rank 0's exchange over MPI (runtime/ivm/ivm_mpi.cpp).
class IvmPeers {
 public:
  virtual ~IvmPeers() = default;
  virtual IvmRoundReply after_round(int worker, const IvmRoundReport& report) = 0;
  // The answer to `give`: an image, or empty when no explorer had two leaves to share.
  virtual void give(int worker, std::string image) = 0;
  // This worker's state for the checkpoint asked for; returns once it is written, with
  // whether the run stops there.
  virtual bool deposit(int worker, std::string image, const PjGpuResults& results) = 0;
  // What of an image did not fit a worker's empty explorers, back to the pool.
  virtual void put_back(int worker, std::string image) = 0;
  // A dry worker's request, with its results so far: the next image, or none when the
  // search is over. Blocks.
  virtual std::optional<std::string> want_work(int worker, const PjGpuResults& results) = 0;
  // How to cut this worker's round short when it is asked to give (none: it gives at
  // the end of its round, which its time slice bounds).
  virtual void when_asked(int /*worker*/, std::function<void()> /*interrupt*/) {}
};

// One GPU's explorers as the loop below drives them (runtime/ivm/ivm_device.hpp; the tests
// drive fakes through the same loop).
struct IvmRound {
  double remaining = 0;  // leaves left after the round
  bool active = false;   // some explorer has work
  bool hungry = false;   // fewer than half of them have: ask for work before running dry
  bool answered = false; // a decision or enumeration reached its limit: the run is over
  PjGpuResults results{};
};
class IvmWorkerOps {
 public:
  virtual ~IvmWorkerOps() = default;
  virtual bool has_work() const = 0;           // before the first round
  virtual IvmRound explore() = 0;              // one round
  virtual void balance() = 0;                  // work stealing among its explorers
  virtual void set_best(int best) = 0;         // another worker's incumbent
  virtual std::string export_half() = 0;       // empty: nothing to give
  virtual std::string image() = 0;             // its explorers, for a checkpoint
  // Work into the empty explorers; returns what did not fit (empty: all of it did).
  virtual std::string merge(const std::string& image) = 0;
  virtual PjGpuResults results() = 0;
};

// The rounds of worker `worker` until the search is over or the peers say stop: explore,
// report, take the best incumbent, give when asked, deposit for a checkpoint, balance;
// when dry, ask for work. `optimise`: incumbents travel.
void run_ivm_worker(IvmPeers& peers, int worker, IvmWorkerOps& ops, bool optimise);

// Merges `from` into `into`: counts add, the better recorded solution stays.
void merge_results(PjGpuResults& into, const PjGpuResults& from, bool maximise);

class IvmExchange : public IvmPeers {
 public:
  // `workers` GPUs; `optimise`/`maximise`: whether and which way incumbents compare;
  // `start_best` the incumbent all start from.
  IvmExchange(int workers, bool optimise, bool maximise, int start_best);

  // Images to hand out before any worker is asked (a resume's).
  void add_to_pool(std::vector<std::string> images);
  // Incumbents found outside the search (the local search beside it, runtime/core/
  // warm_start.hpp): after each round the exchange asks `f` for a value better than its
  // best, and hands it to every worker as it hands theirs. Before the workers start.
  using OutsideLeaves = std::function<std::optional<int>(int best)>;
  void take_outside_leaves(OutsideLeaves f) { outside_ = std::move(f); }

  IvmRoundReply after_round(int worker, const IvmRoundReport& report) override;
  void give(int worker, std::string image) override;
  void put_back(int worker, std::string image) override;
  bool deposit(int worker, std::string image, const PjGpuResults& results) override;
  std::optional<std::string> want_work(int worker, const PjGpuResults& results) override;
  void when_asked(int worker, std::function<void()> interrupt) override;

  // The supervisor's side. A checkpoint: ask every worker for its state, wait for all,
  // and return the images (workers' and pool's) and the merged results; `release`
  // then lets the workers go on (or stop).
  struct Snapshot {
    std::vector<std::string> images;
    PjGpuResults results{};
  };
  Snapshot take_checkpoint();
  void release(bool stop);
  // Ends the run early (an error in a worker): every call returns at once, saying stop.
  void abort();
  // Blocks until the search is over (or aborted), at most `seconds`; true when over.
  bool wait_finished(double seconds);
  bool aborted() const;

  // Progress: the leaves left in the workers' intervals as last reported (an image in
  // the pool is not counted), and the nodes evaluated.
  double remaining_leaves() const;
  unsigned long long evaluated() const;
  int best() const;
  // Images that moved between workers.
  unsigned long long transfers() const;

 private:
  bool better(int a, int b) const { return maximise_ ? a > b : a < b; }
  void take_best(int b);
  bool all_deposited() const;
  int pick_victim(int thief) const;
  // A dry or hungry worker without an ask outstanding asks the GPU with the most left.
  void ask_for(int thief);

  const int n_;
  const bool optimise_, maximise_;
  mutable std::mutex m_;
  std::condition_variable cv_;
  int best_;
  std::vector<std::string> pool_;
  std::vector<double> remaining_;      // as last reported
  std::vector<unsigned long long> evaluated_;
  std::vector<char> dry_, hungry_, asked_, unsplittable_;
  std::vector<int> asked_by_;          // the worker a dry one asked (-1: none)
  std::vector<char> deposited_;
  std::vector<std::string> deposits_;
  std::vector<PjGpuResults> results_;  // each worker's, as last given
  std::vector<std::function<void()>> interrupt_;
  bool checkpoint_ = false, stop_ = false, finished_ = false, aborted_ = false;
  unsigned long long epoch_ = 0;  // checkpoints released so far
  unsigned long long transfers_ = 0;
  OutsideLeaves outside_;
};

}  // namespace permjit
