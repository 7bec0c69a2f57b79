// GPU IDA* over the roots of the upper tree (Horie and Fukunaga 2017): one f-limited iteration per
// launch. The host assigns the alive roots to blocks (pj_ida_warp) or threads
// (pj_ida_thread) from the previous iteration's work per root, and reduces the next
// limit; the counting rules are those of templates/cpu_ida.hpp.
//
// pj_ida_warp, BPIDA* (§5, Appendix A.1): a block is one warp; it searches its roots one
// after another with a stack of nodes in shared memory. Each step pops nodes from the top
// (parallelPop), as many as have moves for the warp's 32 lanes, one lane per child (the
// paper gives each node kMoves lanes, idle where a move does not apply), and the
// children kept are put on the stack (atomicPut). Since Volta a warp's lanes are
// scheduled independently, so nothing may rest on lock-step execution
// (docs/skeletons.md, "ida: how the stack stays consistent"): the top of the stack is a
// register every lane holds with the same value, the put is warp-aggregated (a ballot
// gives each keeping lane its slot above the top, the popcount the new top), and one
// __syncwarp separates the step's reads of the stack from its writes, another its
// writes from the next step's reads.
#ifndef PJ_IDA_MAX_LEVELS
#define PJ_IDA_MAX_LEVELS 128  // ida-thread: the deepest path below a root (one node per level)
#endif

namespace gpu_ida {

using problem::Node;
constexpr int kMoves = problem::kMoves;
static_assert(kMoves <= 32, "a node's moves fit one warp");
constexpr unsigned kFull = 0xffffffffu;
constexpr int kNoLimit = 0x7fffffff;  // no f above the limit was met (INT_MAX; NVRTC has no <climits>)

struct Entry {
  Node node;
  int g;
  int last;
};

// A node one warp hands to another (--balance donate), in the queue: the entry, the item
// whose work it is, and its source (the item, or PJ_IDA_DONATED | the slot of the
// donated node it was found below) so that the host can retrace the path to it.
struct Donation {
  Entry entry;
  unsigned item;
  unsigned parent;
};
// Field offsets (NVRTC has no offsetof): each struct's size is a multiple of 4, so the
// 4-byte fields follow their predecessor with no padding between.
constexpr int kEntryG = sizeof(Node), kEntryLast = sizeof(Node) + 4;
constexpr int kDonationParent = sizeof(Entry) + 4;

}  // namespace gpu_ida

// The host sizes the ida stack from the entry, and reads donations back, as this
// compiler lays them out.
extern "C" __constant__ int pj_ida_entry_bytes = sizeof(gpu_ida::Entry);
extern "C" __constant__ int pj_ida_entry_g_offset = gpu_ida::kEntryG;
extern "C" __constant__ int pj_ida_entry_last_offset = gpu_ida::kEntryLast;
extern "C" __constant__ int pj_ida_donation_bytes = sizeof(gpu_ida::Donation);
extern "C" __constant__ int pj_ida_donation_parent_offset = gpu_ida::kDonationParent;

namespace gpu_ida {

__device__ __forceinline__ bool skip(int m, int last) { return last >= 0 && m == problem::inverse_move(last); }

__device__ __forceinline__ unsigned long long warp_sum(unsigned long long x) {
  for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(kFull, x, o);
  return x;
}
__device__ __forceinline__ int warp_min(int x) {
  for (int o = 16; o > 0; o >>= 1) x = min(x, __shfl_down_sync(kFull, x, o));
  return x;
}
// The minimum, in every lane (one instruction from sm_80 on).
__device__ __forceinline__ int warp_min_all(int x) {
#if __CUDA_ARCH__ >= 800
  return __reduce_min_sync(kFull, x);
#else
  for (int o = 16; o > 0; o >>= 1) x = min(x, __shfl_xor_sync(kFull, x, o));
  return x;
#endif
}

// The items a worker (a warp or a thread) searches, as positions in `order`. Static
// balancing (Horie and Fukunaga 2017's PStaticLB): begin[w]..begin[w+1]-1, assigned by the host.
// Dynamic (begin == nullptr): the next position of a shared counter whenever the worker
// is free; the host puts the largest expected items first.
struct Items {
  static constexpr unsigned kNone = 0xffffffffu;
  const unsigned* begin;
  unsigned count, worker;
  unsigned* counter;
  __device__ Items(const unsigned* b, unsigned n, unsigned w, unsigned* c)
      : begin(b), count(n), worker(w), counter(c) {}
  __device__ unsigned checked(unsigned k, unsigned end) const { return k < end ? k : kNone; }
  __device__ unsigned take() const { return checked(atomicAdd(counter, 1u), count); }
  // One thread.
  __device__ unsigned first() const { return begin ? checked(begin[worker], begin[worker + 1]) : take(); }
  __device__ unsigned next(unsigned k) const { return begin ? checked(k + 1, begin[worker + 1]) : take(); }
  // A warp: lane 0 takes, every lane gets the same position.
  __device__ unsigned first_of_warp(int lane) const {
    if (begin) return checked(begin[worker], begin[worker + 1]);
    return __shfl_sync(kFull, lane == 0 ? take() : 0u, 0);
  }
  __device__ unsigned next_of_warp(int lane, unsigned k) const {
    if (begin) return checked(k + 1, begin[worker + 1]);
    return __shfl_sync(kFull, lane == 0 ? take() : 0u, 0);
  }
};

__device__ __forceinline__ int warp_inclusive_sum(int x, int lane) {
  for (int o = 1; o < 32; o <<= 1) {
    const int y = __shfl_up_sync(kFull, x, o);
    if (lane >= o) x += y;
  }
  return x;
}
__device__ __forceinline__ unsigned warp_or(unsigned x) {
#if __CUDA_ARCH__ >= 800
  return __reduce_or_sync(kFull, x);
#else
  for (int o = 16; o > 0; o >>= 1) x |= __shfl_xor_sync(kFull, x, o);
  return x;
#endif
}
// Lane `src`'s value of v, word by word.
template <class T>
__device__ __forceinline__ T shfl_words(const T& v, int src) {
  static_assert(sizeof(T) % 4 == 0, "shuffled in 32-bit words");
  constexpr int kWords = sizeof(T) / 4;
  unsigned w[kWords];
  memcpy(w, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < kWords; ++i) w[i] = __shfl_sync(kFull, w[i], src);
  T out;
  memcpy(&out, w, sizeof(T));
  return out;
}

// Donation (--balance donate): once the items are all taken, a warp whose stack runs dry
// takes a ticket (queue_head) and waits for a busy warp to fill the queue slot of that
// number with a node from the bottom of its stack (the shallowest, with the largest
// subtree below it). Each waiter watches only its own slot: no herd of waiters on one
// counter. A donor gives while there are more tickets than filled slots: it reserves
// slots (queue_tail), counts them as work held (`active`), writes them and marks each
// ready with the launch's stamp. Termination: `active` counts every block until its
// first items are done, then the nodes taken from the queue until their search ends, and
// the slots filled but not yet taken; so when it is 0 nothing can be given any more, and
// a waiter whose slot is empty leaves. Every block must be resident at once (the host
// launches no more than fit), or a waiter could wait for a block that cannot start.
// (docs/skeletons.md, "Donation".)
struct Queue {
  Donation* slots;
  unsigned* ready;  // per slot: the stamp of the launch that filled it
  unsigned capacity, stamp;
};

// One thread: `count` consecutive slots, counted as work held, or Items::kNone if the
// queue is full.
__device__ unsigned reserve_slots(PjIdaDeviceCounts* out, const Queue& q, unsigned count) {
  unsigned t = *reinterpret_cast<volatile unsigned*>(&out->queue_tail);
  for (;;) {
    if (t + count > q.capacity) return Items::kNone;
    const unsigned seen = atomicCAS(&out->queue_tail, t, t + count);
    if (seen == t) break;
    t = seen;
  }
  atomicAdd(&out->active, static_cast<int>(count));
  return t;
}

// One thread of a warp whose work is done: the slot its ticket gets filled, or kNone
// when the search is over.
__device__ unsigned wait_for_donation(PjIdaDeviceCounts* out, const Queue& q) {
  const unsigned ticket = atomicAdd(&out->queue_head, 1u);
  atomicSub(&out->active, 1);
  volatile unsigned* mark = q.ready + ticket;
  volatile int* active = &out->active;
  volatile int* stop = &out->stop;
  unsigned pause = 64;
  for (;;) {
    if (ticket < q.capacity && *mark == q.stamp) return ticket;
    // A filled slot stays counted in `active` until its taker is done: 0 means that
    // this slot is empty and that no warp is left to fill it.
    if (*active == 0) return Items::kNone;
    if (*stop) return Items::kNone;  // a goal (first solution), or the host asks
    __nanosleep(pause);
    pause = min(2 * pause, 1024u);
  }
}

// Lane 0 of the warp copies the donation in `slot`, marked ready, to the stack's bottom
// entry; returns its item. Reads go around L1 (__ldcg): a line of the queue may be in
// this SM's L1 from before the slot was written.
__device__ unsigned take_donation(const Queue& q, unsigned slot, Entry* bottom) {
  __threadfence();  // the slot's words are read after its mark
  const unsigned* src = reinterpret_cast<const unsigned*>(q.slots + slot);
  unsigned* dst = reinterpret_cast<unsigned*>(bottom);
  for (int i = 0; i < static_cast<int>(sizeof(Entry) / 4); ++i) dst[i] = __ldcg(src + i);
  return __ldcg(&q.slots[slot].item);
}

// The warp: moves stack[from, top) down to stack[0, top - from) after the entries below
// `from` were given away, and returns the new top. Compacting keeps the stack's room:
// the pop width is bounded by the room above the top (a stack left where it was would
// run into its end and narrow every pop). Chunks of 32 upwards: a chunk's writes land
// below the next chunk's reads.
__device__ int shift_down(Entry* stack, int from, int top, int lane) {
  for (int base = from; base < top; base += 32) {
    const bool moves = base + lane < top;
    Entry e;
    if (moves) e = stack[base + lane];
    __syncwarp();
    if (moves) stack[base + lane - from] = e;
    __syncwarp();
  }
  return top - from;
}

// The thread's totals into the iteration's counts.
__device__ void publish(unsigned long long expanded, unsigned long long evaluated, unsigned long long solutions,
                        int next, PjIdaDeviceCounts* out) {
  if (expanded) atomicAdd(&out->expanded, expanded);
  if (evaluated) atomicAdd(&out->evaluated, evaluated);
  if (solutions) atomicAdd(&out->solutions, solutions);
  if (next != kNoLimit) atomicMin(&out->next_limit, next);
}

}  // namespace gpu_ida

extern "C" __global__ void __launch_bounds__(32)
    pj_ida_warp(const problem::Node* __restrict__ roots, const int* __restrict__ root_g,
                const int* __restrict__ root_last, const unsigned* __restrict__ order,
                const unsigned* __restrict__ block_begin, unsigned items, int limit, int all_solutions, int capacity,
                gpu_ida::Donation* queue, unsigned* queue_ready, unsigned queue_capacity, unsigned stamp,
                unsigned donate_after,
                unsigned long long* __restrict__ work, unsigned long long* __restrict__ worker_work,
                PjIdaDeviceCounts* out) {
  PJ_TEST_FAULT_POINT();
  using namespace gpu_ida;
  extern __shared__ __align__(16) unsigned char stack_bytes[];
  Entry* stack = reinterpret_cast<Entry*>(stack_bytes);
  const int lane = threadIdx.x;
  const unsigned below_me = (1u << lane) - 1;
  const Queue q{queue, queue_ready, queue_capacity, stamp};
  const bool donate = queue_capacity > 0;
  // The cheapest move bounds the levels left below a node of cost g: (limit - g) / cheapest.
  int cheapest = kNoLimit;
  for (int k = 0; k < kMoves; ++k) cheapest = min(cheapest, problem::move_cost(k));
  unsigned long long evaluated = 0, solutions = 0, expanded_total = 0;
  int next = kNoLimit;
  Items mine_list(block_begin, items, blockIdx.x, &out->next_item);
  unsigned k = mine_list.first_of_warp(lane);
  for (;;) {
    // The next work: an item, else (donating) a node another warp gives. `source` names
    // it for the path: the item, or PJ_IDA_DONATED | its queue slot.
    unsigned item, source;
    if (k != Items::kNone) {
      item = source = order[k];
      if (lane == 0) stack[0] = Entry{roots[item], root_g[item], root_last[item]};
    } else {
      unsigned slot = Items::kNone;
      if (donate && lane == 0) slot = wait_for_donation(out, q);
      slot = __shfl_sync(kFull, slot, 0);
      if (slot == Items::kNone) break;
      source = PJ_IDA_DONATED | slot;
      item = __shfl_sync(kFull, lane == 0 ? take_donation(q, slot, stack) : 0u, 0);
    }
    unsigned long long popped = 0;
    int top = 1;  // the same in every lane
    unsigned steps = 0;
    __syncwarp();
    while (top > 0) {
      ++steps;
      // First-solution mode: another warp's goal ends the search; in every mode the
      // host may ask (--time-limit, a signal, another GPU's goal). Read now and then.
      if ((steps & 63) == 0) {
        int stop = lane == 0 ? *reinterpret_cast<volatile int*>(&out->stop) : 0;
        if (__shfl_sync(kFull, stop, 0)) break;
      }
      // Donation: while tickets wait for slots, a warp that has searched its work for
      // `donate_after` steps gives up to half of its stack from the bottom (checked now
      // and then: a load from L2 costs about a step). A warp on a small subtree does not
      // give: the nodes of its stack would be smaller still, and on Korf's instances a
      // node given for every ~300 expanded made the last iterations 13x slower.
      if (donate && steps >= donate_after && (steps & 15) == 0 && top >= 2) {
        int want = 0;
        if (lane == 0)
          want = static_cast<int>(*reinterpret_cast<volatile unsigned*>(&out->queue_head) -
                                  *reinterpret_cast<volatile unsigned*>(&out->queue_tail));
        const int give = min(min(__shfl_sync(kFull, want, 0), top / 2), 32);
        if (give > 0) {
          unsigned base = lane == 0 ? reserve_slots(out, q, static_cast<unsigned>(give)) : 0u;
          base = __shfl_sync(kFull, base, 0);
          if (base != Items::kNone) {
            if (lane < give) {
              q.slots[base + lane] = Donation{stack[lane], item, source};
              __threadfence();
              atomicExch(q.ready + base + lane, q.stamp);
            }
            if (lane == 0) atomicAdd(&out->donated, static_cast<unsigned long long>(give));
            top = shift_down(stack, give, top, lane);
          }
        }
      }
      // parallelPop, compacted: the top 32 entries are candidates; each finds the moves
      // it will apply (applicable, not undoing its last move), and the longest run of
      // candidates whose moves fit the warp's 32 lanes is popped, one lane per child. The
      // paper's fixed 32 / kMoves nodes per step leaves a lane idle for every move that
      // does not apply (about half of them on the 15-puzzle).
      const int can = min(top, 32);
      Entry e;
      unsigned valid = 0;  // candidate `lane`'s moves to apply, one bit each
      if (lane < can) {
        e = stack[top - 1 - lane];
#pragma unroll
        for (int k = 0; k < kMoves; ++k)
          valid |= static_cast<unsigned>(problem::applicable(e.node, k) && !skip(k, e.last)) << k;
      }
      const int count = __popc(valid);
      const int incl = warp_inclusive_sum(count, lane);  // lanes used by candidates 0..lane
      const int fit = __popc(__ballot_sync(kFull, lane < can && incl <= 32));
      // How many to pop. A one-node pop must always fit later, so a wide pop is taken
      // only if, afterwards, a depth-first descent from every entry still fits: entry i
      // (from the bottom) with r levels left below it needs i + 1 + (kMoves - 1) * r
      // slots, and a pop of k nodes with at most r_max levels left pushes at most
      // k * (kMoves - 1) children with fewer (docs/skeletons.md). r is bounded by
      // (limit - g) / the cheapest move; with free moves there is no bound, and the
      // kernel flags an overflow rather than give a wrong count.
      const int g_min = warp_min_all(lane < can ? e.g : kNoLimit);
      const int r_max = cheapest > 0 ? (limit - g_min) / cheapest : 0;
      const int room = (capacity - top - (kMoves - 1) * r_max) / (kMoves > 1 ? kMoves - 1 : 1);
      const int take = max(1, min(fit, room));
      if (top - 1 + kMoves > capacity) {  // not even one pop fits: the results would be void
        if (lane == 0) atomicExch(&out->overflow, 1);
        break;
      }
      const bool taken = lane < take;
      popped += taken;
      // Lane j applies the (j - excl_i)-th move of the taken candidate i with
      // excl_i <= j < incl_i: `starts` marks where each candidate's lanes begin.
      const int excl = incl - count;
      const bool gives = taken && count > 0;
      const unsigned starts = warp_or(gives ? 1u << excl : 0u);
      const unsigned giving = __ballot_sync(kFull, gives);
      const int used = __shfl_sync(kFull, incl, take - 1);
      const int rank = __popc(starts & (kFull >> (31 - lane))) - 1;  // starts at or below this lane
      const int src = rank >= 0 ? static_cast<int>(__fns(giving, 0, rank + 1)) : 0;
      const Entry p = shfl_words(e, src);
      const unsigned p_valid = __shfl_sync(kFull, valid, src);
      const int p_excl = __shfl_sync(kFull, excl, src);
      top -= take;
      bool keep = false;
      Entry c;
      if (lane < used) {
        const int m = static_cast<int>(__fns(p_valid, 0, lane - p_excl + 1));
        problem::apply_move(p.node, m, c.node);
        ++evaluated;
        c.g = p.g + problem::move_cost(m);
        c.last = m;
        const int f = c.g + c.node.h;
        if (f > limit) {
          next = min(next, f);
        } else if (problem::is_goal(c.node)) {
          ++solutions;
          atomicMin(&out->solved_root, static_cast<unsigned long long>(source));
          if (!all_solutions) atomicExch(&out->stop, 1);
        } else {
          keep = true;
        }
      }
      const unsigned kept = __ballot_sync(kFull, keep);
      __syncwarp();  // every popped entry is read before a put may overwrite its slot
      if (keep) stack[top + __popc(kept & below_me)] = c;  // atomicPut, aggregated
      top += __popc(kept);
      __syncwarp();  // the puts are visible to the next step's pops
    }
    popped = warp_sum(popped);
    if (lane == 0) atomicAdd(&work[item], popped);  // a donated node's work is its item's
    expanded_total += popped;
    if (k != Items::kNone) k = mine_list.next_of_warp(lane, k);
    __syncwarp();
  }
  evaluated = warp_sum(evaluated);
  solutions = warp_sum(solutions);
  next = warp_min(next);
  if (lane == 0) {
    worker_work[blockIdx.x] = expanded_total;
    publish(expanded_total, evaluated, solutions, next, out);
  }
}

// PStaticLB: one thread per group of roots, each searched depth-first with the path's
// nodes on a per-thread stack (local memory).
extern "C" __global__ void pj_ida_thread(const problem::Node* __restrict__ roots, const int* __restrict__ root_g,
                                         const int* __restrict__ root_last, const unsigned* __restrict__ order,
                                         const unsigned* __restrict__ thread_begin, unsigned items, unsigned threads,
                                         int limit, int all_solutions, unsigned long long* __restrict__ work,
                                         unsigned long long* __restrict__ worker_work, PjIdaDeviceCounts* out) {
  PJ_TEST_FAULT_POINT();
  using namespace gpu_ida;
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= threads) return;
  Node path[PJ_IDA_MAX_LEVELS + 1];
  int g[PJ_IDA_MAX_LEVELS + 1], last[PJ_IDA_MAX_LEVELS + 1], next_move[PJ_IDA_MAX_LEVELS + 1];
  unsigned long long expanded = 0, evaluated = 0, solutions = 0;
  int next = kNoLimit;
  Items mine_list(thread_begin, items, t, &out->next_item);
  for (unsigned k = mine_list.first(); k != Items::kNone; k = mine_list.next(k)) {
    const unsigned root = order[k];
    if (*reinterpret_cast<volatile int*>(&out->stop)) break;  // a goal (first solution), or the host asks
    unsigned long long before = expanded;
    path[0] = roots[root];
    g[0] = root_g[root];
    last[0] = root_last[root];
    next_move[0] = 0;
    ++expanded;
    int depth = 0;
    while (depth >= 0) {
      if (next_move[depth] == kMoves) {
        --depth;
        continue;
      }
      const int m = next_move[depth]++;
      if (!problem::applicable(path[depth], m) || skip(m, last[depth])) continue;
      Node c;
      problem::apply_move(path[depth], m, c);
      ++evaluated;
      const int cg = g[depth] + problem::move_cost(m);
      const int f = cg + c.h;
      if (f > limit) {
        next = min(next, f);
        continue;
      }
      if (problem::is_goal(c)) {
        ++solutions;
        atomicMin(&out->solved_root, static_cast<unsigned long long>(root));
        if (!all_solutions) {
          atomicExch(&out->stop, 1);
          depth = -1;
        }
        continue;
      }
      if (depth + 1 > PJ_IDA_MAX_LEVELS) {
        atomicExch(&out->overflow, 1);
        continue;
      }
      ++depth;
      path[depth] = c;
      g[depth] = cg;
      last[depth] = m;
      next_move[depth] = 0;
      ++expanded;
    }
    work[root] = expanded - before;
  }
  worker_work[t] = expanded;
  publish(expanded, evaluated, solutions, next, out);
}
