// The work of the `cpu` skeleton's threads (templates/cpu_dfs.hpp): first the
// frontier's subtrees, handed out by a cursor; then subtrees that busy threads split off
// their own stacks for threads that have run out of work.
//
// Nothing here is written per node. A busy thread reads `hungry` at its periodic check
// (a line written only when a thread runs out of work or takes a donation) and takes
// the lock only to donate; an idle thread takes it once per subtree.
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <vector>

// Hidden: the module exports its extern "C" entry points only, so calls between these
// functions (the recursive search above all) are direct, not through the PLT.
#pragma GCC visibility push(hidden)
namespace cpu_skeleton {

// A subtree to search: its root was generated, evaluated and kept by whoever made it
// (counted there); it is expanded by the thread that searches it.
struct Subtree {
  problem::Node node;
  long long bound;  // the root's bound, checked again before it is expanded
  int depth;        // values placed
  int lo;           // values at the front (all of them, unless two ends)
  int perm[problem::kSize];
};

class WorkPool {
 public:
  explicit WorkPool(int workers) : workers_(workers) {}

  void set_frontier(std::vector<Subtree> frontier) { frontier_ = std::move(frontier); }

  // True while a thread waits for work and none has been donated: a busy thread that
  // reads it splits its stack (relaxed: a stale read only delays a donation).
  bool hungry() const { return hungry_.load(std::memory_order_relaxed); }

  // The next subtree for this thread: the frontier's next, else a donated one, waiting
  // for one while other threads still search. False when the search is over (every
  // thread waits and nothing is left) or stopped.
  bool take(Subtree& out, const std::atomic<bool>& stop) {
    if (stop.load(std::memory_order_relaxed)) return false;
    if (cursor_.load(std::memory_order_relaxed) < frontier_.size()) {
      const size_t i = cursor_.fetch_add(1, std::memory_order_relaxed);
      if (i < frontier_.size()) {
        out = frontier_[i];
        return true;
      }
    }
    std::unique_lock<std::mutex> g(lock_);
    ++idle_;
    for (;;) {
      if (stop.load(std::memory_order_relaxed)) return false;
      if (!donated_.empty()) {
        out = donated_.back();
        donated_.pop_back();
        --idle_;
        hungry_.store(idle_ > 0 && donated_.empty(), std::memory_order_relaxed);
        return true;
      }
      if (idle_ == workers_) {  // no one left to donate: done
        hungry_.store(false, std::memory_order_relaxed);
        wake_.notify_all();
        return false;
      }
      hungry_.store(true, std::memory_order_relaxed);
      wake_.wait(g);
    }
  }

  // Subtrees split off a busy thread's stack.
  void give(const std::vector<Subtree>& parts) {
    if (parts.empty()) return;
    {
      std::lock_guard<std::mutex> g(lock_);
      donated_.insert(donated_.end(), parts.begin(), parts.end());
      hungry_.store(false, std::memory_order_relaxed);
    }
    wake_.notify_all();
  }

  // The time limit passed: waiting threads return.
  void wake_all() {
    { std::lock_guard<std::mutex> g(lock_); }
    wake_.notify_all();
  }

  // Hands each subtree never searched to `f` (after the threads have returned).
  template <class F>
  void for_each_left(F&& f) {
    std::lock_guard<std::mutex> g(lock_);
    for (size_t i = cursor_.load(); i < frontier_.size(); ++i) f(frontier_[i]);
    for (const Subtree& s : donated_) f(s);
  }

  // Work never searched (after the threads have returned): the result is partial.
  bool left() {
    std::lock_guard<std::mutex> g(lock_);
    return cursor_.load() < frontier_.size() || !donated_.empty();
  }

 private:
  std::vector<Subtree> frontier_;
  const int workers_;
  alignas(64) std::atomic<size_t> cursor_{0};  // written once per frontier subtree
  alignas(64) std::atomic<bool> hungry_{false};
  alignas(64) std::mutex lock_;
  std::condition_variable wake_;
  std::vector<Subtree> donated_;
  int idle_ = 0;  // threads in take()
};

}  // namespace cpu_skeleton
#pragma GCC visibility pop
