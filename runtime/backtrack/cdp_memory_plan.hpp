// The memory analysis of the cdp and rec skeletons (Carneiro Pessoa et al. 2018 §3.3, Algorithm 3, and
// §4.2): how many d_gpu nodes one d_cpu node can have at most, how much device memory a
// chunk of d_cpu nodes needs with its active sets A_gpu, and the largest chunk that fits
// the share of free memory that dynamic parallelism leaves usable. Plain arithmetic, no
// device: the host calls it with what the driver reports, the tests with numbers.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>

namespace permjit {

// The share of free device memory the plan may use. Seed 000 §4.2: CUDA returned "out of
// memory" with 75% of the memory taken, so the paper settled on 70%; the rest is the
// device runtime's (pending launches, child grids' stacks).
constexpr double kCdpUsableShare = 0.7;

struct CdpMemoryInput {
  int size = 0;                       // N: values per permutation
  int prefix_length = 0;              // values the root places (the fixed prefix)
  int dcpu = 0, dgpu = 0;             // absolute depths (values placed), dcpu <= dgpu < size
  unsigned long long survivors = 0;   // |A_cpu|: the d_cpu nodes
  size_t node_bytes = 0;              // one node in A_cpu or A_gpu
  size_t prefix_bytes = 0;            // the placed values kept with each node (optimisation goals)
  int block = 128;                    // threads per block of the intermediate search
  int child_grids = 2;                // grids each of its blocks launches (cdp; 0 for rec)
  size_t free_bytes = 0;              // free device memory
  unsigned long long max_chunk = 0;   // --max-chunk, 0: no limit
};

struct CdpMemoryPlan {
  double max_cpu = 0, max_gpu = 0;    // nodes that depths d_cpu and d_gpu can hold at most
  unsigned long long expected_children = 0;  // d_gpu descendants of one d_cpu node, at most
  unsigned long long chunk = 0;       // d_cpu nodes per launch of the intermediate search
  unsigned long long blocks = 0;      // its blocks
  unsigned long long a_gpu_nodes = 0; // capacity of A_gpu: blocks * block * expected_children
  size_t bytes = 0;                   // r_cdp: A_cpu, A_gpu and control data of one chunk
  size_t budget = 0;                  // kCdpUsableShare of the free memory
  unsigned long long pending_launches = 0;  // child grids one chunk launches at most
};

// A plan that cannot be made: d_gpu so far below d_cpu that one block's active set
// does not fit. The message says what to change.
struct CdpMemoryError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The largest chunk (<= survivors, <= max_chunk) whose r_cdp fits the budget.
CdpMemoryPlan plan_cdp_memory(const CdpMemoryInput& in);

}  // namespace permjit
