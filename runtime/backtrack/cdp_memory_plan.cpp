#include "runtime/backtrack/cdp_memory_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace permjit {

namespace {

// Nodes at depth d below a root at depth p: (N-p)! / (N-d)!, as a double (it is only
// reported; the exact quantities below never need more than their ratio).
double nodes_at(int n, int p, int d) {
  double v = 1;
  for (int k = p; k < d; ++k) v *= n - k;
  return v;
}

std::string mib(double bytes) { return std::to_string(static_cast<long long>(std::ceil(bytes / 1048576.0))) + " MiB"; }

}  // namespace

CdpMemoryPlan plan_cdp_memory(const CdpMemoryInput& in) {
  CdpMemoryPlan p;
  p.max_cpu = nodes_at(in.size, in.prefix_length, in.dcpu);
  p.max_gpu = nodes_at(in.size, in.prefix_length, in.dgpu);
  p.budget = static_cast<size_t>(static_cast<double>(in.free_bytes) * kCdpUsableShare);

  // expected_children = max_gpu / max_cpu = (N-dcpu)! / (N-dgpu)!, kept exact; the
  // active set of a block holds block * expected_children nodes, counted in 32 bits.
  const unsigned long long limit = std::numeric_limits<unsigned>::max() / static_cast<unsigned>(in.block);
  unsigned long long expected = 1;
  for (int d = in.dcpu; d < in.dgpu; ++d) {
    expected *= static_cast<unsigned long long>(in.size - d);
    if (expected > limit)
      throw CdpMemoryError("d_gpu = " + std::to_string(in.dgpu) + " is too far below d_cpu = " +
                           std::to_string(in.dcpu) + ": a block's active set would hold more than 2^32 nodes; "
                           "lower --dgpu (d_cpu + 2 is the paper's choice)");
  }
  p.expected_children = expected;

  const size_t entry = in.node_bytes + in.prefix_bytes;
  // Per block of the intermediate search: its A_cpu nodes, its active set, its load
  // and (rec) its offset.
  const double per_block = static_cast<double>(in.block) * static_cast<double>(entry) *
                               (1.0 + static_cast<double>(expected)) + sizeof(unsigned) + sizeof(unsigned long long);
  const double fixed = 4096;  // the results and control blocks, rounded up
  double room = static_cast<double>(p.budget) - fixed;
  unsigned long long blocks_fit = room > per_block ? static_cast<unsigned long long>(room / per_block) : 0;
  if (blocks_fit == 0)
    throw CdpMemoryError("one block's active set at d_gpu = " + std::to_string(in.dgpu) + " (" +
                         std::to_string(in.block) + " threads x " + std::to_string(expected) + " nodes of " +
                         std::to_string(entry) + " bytes) needs " + mib(per_block) + ", more than " +
                         mib(static_cast<double>(p.budget)) + " (70% of the free device memory); lower --dgpu");

  unsigned long long chunk = std::max<unsigned long long>(1, in.survivors);
  if (in.max_chunk > 0) chunk = std::min(chunk, in.max_chunk);
  const unsigned long long block = static_cast<unsigned long long>(in.block);
  chunk = std::min(chunk, blocks_fit * block);
  p.chunk = chunk;
  p.blocks = (chunk + block - 1) / block;
  p.a_gpu_nodes = p.blocks * block * expected;
  p.bytes = static_cast<size_t>(fixed + static_cast<double>(p.blocks) * per_block);
  p.pending_launches = p.blocks * static_cast<unsigned long long>(std::max(0, in.child_grids));
  return p;
}

}  // namespace permjit
