// One host thread's pool of open nodes for the `offload` skeleton (Chakroun et al. 2013 §5.1):
// hybrid selection, best-first until the pool is large, then depth-first until it is
// small again. Each depth has a heap (best bound on top) for the best-first phase and a
// plain stack for the depth-first phase: a heap pop walks log(n) entries of a pool far
// larger than the caches, a stack pop touches one. Nodes pushed while depth-first go
// on the stacks; going back to best-first turns the stacks into heaps again.
#include <algorithm>
#include <vector>

namespace cpu_offload {

using problem::Mask;
using problem::Node;
constexpr int kSize = problem::kSize;

struct OpenNode {
  Node node;      // carries the state only: the values placed are `perm`
  int bound;      // the device's bounds are 32-bit
  int depth;      // values placed
  unsigned char perm[kSize];
};

// True when bound a is better than bound b.
inline bool better_bound(int a, int b) { return problem::kGoal == pj::Goal::maximize ? a > b : a < b; }
inline bool better(const OpenNode& a, const OpenNode& b) { return better_bound(a.bound, b.bound); }

class Pool {
 public:
  unsigned long long size() const { return size_; }
  bool best_first() const { return best_first_; }

  void set_best_first(bool on) {
    if (on == best_first_) return;
    best_first_ = on;
    if (!on) return;
    for (Level& l : levels_) {
      if (l.stack.empty()) continue;
      l.heap.insert(l.heap.end(), l.stack.begin(), l.stack.end());
      l.stack.clear();
      std::make_heap(l.heap.begin(), l.heap.end(), worse);
    }
  }

  void push(const OpenNode& n) {
    Level& l = levels_[n.depth];
    if (best_first_) {
      l.heap.push_back(n);
      std::push_heap(l.heap.begin(), l.heap.end(), worse);
    } else {
      l.stack.push_back(n);
    }
    ++size_;
  }

  // Best-first: the best heap top over the depths. Depth-first: the deepest depth
  // with a node, its stack's top (the last pushed) before its heap's best.
  bool pop(OpenNode& out) {
    int pick = -1;
    for (int d = kSize - 1; d >= 0; --d) {
      const Level& l = levels_[d];
      if (best_first_) {
        if (!l.heap.empty() && (pick < 0 || better(l.heap.front(), levels_[pick].heap.front()))) pick = d;
      } else if (!l.heap.empty() || !l.stack.empty()) {
        pick = d;
        break;
      }
    }
    if (pick < 0) return false;
    Level& l = levels_[pick];
    if (!l.stack.empty()) {
      out = l.stack.back();
      l.stack.pop_back();
    } else {
      std::pop_heap(l.heap.begin(), l.heap.end(), worse);
      out = l.heap.back();
      l.heap.pop_back();
    }
    --size_;
    return true;
  }

  // Calls f on every node held (a stopped search's open work).
  template <class F>
  void for_each(F f) const {
    for (const Level& l : levels_) {
      for (const OpenNode& n : l.heap) f(n);
      for (const OpenNode& n : l.stack) f(n);
    }
  }

  // Moves about half of the nodes (at least one, if any) to `out`, for a thread with
  // none: from each depth, shallowest first, half of its stack's bottom (the oldest
  // nodes, the largest subtrees) and half of its heap's tail (a heap stays a heap
  // when its last entries go).
  void split(std::vector<OpenNode>& out) {
    unsigned long long want = (size_ + 1) / 2;
    for (Level& l : levels_) {
      if (want == 0) break;
      auto take = [&](size_t have) {
        return static_cast<size_t>(std::min<unsigned long long>(want, (have + 1) / 2));
      };
      size_t k = take(l.stack.size());
      out.insert(out.end(), l.stack.begin(), l.stack.begin() + k);
      l.stack.erase(l.stack.begin(), l.stack.begin() + k);
      want -= k;
      size_ -= k;
      k = take(l.heap.size());
      out.insert(out.end(), l.heap.end() - k, l.heap.end());
      l.heap.resize(l.heap.size() - k);
      want -= k;
      size_ -= k;
    }
  }

 private:
  struct Level {
    std::vector<OpenNode> heap, stack;
  };
  Level levels_[kSize];
  unsigned long long size_ = 0;
  bool best_first_ = true;
  // Heap order: a is below b when b is better.
  static bool worse(const OpenNode& a, const OpenNode& b) { return better(b, a); }
};

}  // namespace cpu_offload
