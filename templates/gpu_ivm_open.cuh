// The `ivm` skeleton's open-work kernels (docs/reliability.md, "Partial answers"): the
// least bound over what a stopped search left open, and its refinement. A device unit of
// their own (runtime/ivm/ivm_skeleton.cpp, ivm_units; `permjit emit --unit deferred`),
// compiled only when a stop or the progress line's bound first needs it, after
// templates/ivm_open_work.h and templates/gpu_ivm_common.cuh: they run only then, and
// compiled into the search's module they added 29% to its NVRTC time
// (docs/decisions.md, "The open-work kernels in a unit of their own").

namespace pj_ivm::device {

// The bound of a node as the search compares it with the incumbent `best` when it pops
// the node (templates/gpu_ivm.cuh, PrunedBy; with two ends pruned_when_popped): the same
// functions, called as PrunedBy calls them, so the open work is bounded as the search
// bounds it. Both kernels below call it, so this module holds one copy of the refinement.
// From `start` + `budget_ns` on (globaltimer), only the first stage: still a bound, and
// what keeps a stop short where the refinement is heavy (every explorer's open children
// with atsp.toml lb = 9 on ft53 are hundreds of millions of Lagrangian bounds, where the
// search evaluated 400 thousand a second).
struct BoundFor {
  int best;
  unsigned long long start = 0, budget_ns = ~0ull;
  __device__ __noinline__ long long operator()(const Node& n) const {
    if constexpr (problem::kStages > 1) {
      if (budget_ns != ~0ull && global_ns() - start > budget_ns) {
        if constexpr (problem::kEnds == 2) return pj_ivm::bound_of(n);
        else return problem::bound(n);
      }
    }
    if constexpr (problem::kEnds == 2) {
      const auto b = pj_ivm::bound_of(n);
      if (problem::kStages == 1 || pj_ivm::prunes(b, best)) return b;
      return problem::refined_bound(n, b);
    } else if constexpr (kKeepStarts) {
      problem::AssignStart* none = nullptr;
      return problem::staged_bound_from(n, problem::bound(n), best, none, none);
    } else {
      return problem::staged_bound(n, best);
    }
  }
};

}  // namespace pj_ivm::device

// The open work of a stopped search (docs/reliability.md, "Partial answers"): each
// explorer adds its open children and their least bound (templates/ivm_open_work.h) to
// `out`, which the host zeroed with key LLONG_MAX; thread 0 writes the root's bound,
// computed without an incumbent so that every stage runs. `best`: the incumbent.
// `budget_ns`: each thread bounds with every stage for that long, then with the first
// (BoundFor).
extern "C" __global__ void pj_ivm_open_bound(pj_ivm::layout::Explorers e, int best, unsigned long long budget_ns,
                                             PjIvmOpen* out) {
  using namespace pj_ivm::device;
  const unsigned long long i = thread_index();
  if constexpr (kOptimise) {
    if (i == 0) {
      Node root;
      problem::root(root);
      out->root_bound = BoundFor{problem::kGoal == pj::Goal::maximize ? -0x7fffffff - 1 : 0x7fffffff}(root);
    }
  }
  if (i >= e.T) return;
  pj_ivm::OpenWork w;
  pj_ivm::add_open_work(Ref{e, i}, best, BoundFor{best, global_ns(), budget_ns}, w);
  if (w.subtrees == 0) return;
  atomicAdd(&out->subtrees, w.subtrees);
  if constexpr (kOptimise) atomicMin(&out->key, w.key);
}

// The open work refined against target key `t` (docs/reliability.md, "Partial
// answers"; templates/ivm_open_work.h, add_refined_work): each open child whose key is
// below t is searched at most `depth` levels down for a cut whose keys all reach t.
// `budget_ns`: each thread gives up (the child fails) once it has run that long, so a
// pass lasts about that long at most. Keys are bounds (leaves: objectives), negated when
// maximising; `best`: the incumbent. The first bound is refined (staged bounds) only
// below t: above it the first bound already passes.
extern "C" __global__ void pj_ivm_open_refine(pj_ivm::layout::Explorers e, int best, long long t, int depth,
                                              unsigned long long budget_ns, PjIvmRefine* out) {
  using namespace pj_ivm::device;
  const unsigned long long i = thread_index();
  if constexpr (kOptimise) {
    if (i >= e.T) return;
    constexpr bool kMax = problem::kGoal == pj::Goal::maximize;
    const long long tv = kMax ? -t : t;  // the target as a bound
    const int t_bound = tv > 0x7fffffffll ? 0x7fffffff : tv < -0x7fffffffll - 1 ? -0x7fffffff - 1 : static_cast<int>(tv);
    const long long best_key = kMax ? -static_cast<long long>(best) : best;
    auto key_of = [t_bound](const Node& n, int level) -> long long {
      const long long b = level == L ? static_cast<long long>(problem::objective(n)) : BoundFor{t_bound}(n);
      return kMax ? -b : b;
    };
    const unsigned long long start = global_ns();
    auto late = [&] { return global_ns() - start > budget_ns; };
    pj_ivm::RefinedWork w;
    pj_ivm::add_refined_work(Ref{e, i}, best_key, t, depth, key_of, late, w);
    if (w.subtrees == 0) return;
    atomicAdd(&out->subtrees, w.subtrees);
    atomicAdd(&out->failed, w.failed);
    atomicAdd(&out->nodes, w.nodes);
    atomicMin(&out->key, w.key);
  }
}
