#include "runtime/ida/ida_gpus.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

namespace permjit {

std::vector<std::vector<unsigned>> least_loaded(const std::vector<unsigned>& order, const std::vector<double>& expected,
                                                size_t bins) {
  using Load = std::pair<double, size_t>;
  std::priority_queue<Load, std::vector<Load>, std::greater<Load>> least;
  for (size_t k = 0; k < bins; ++k) least.push({0.0, k});
  std::vector<std::vector<unsigned>> lists(bins);
  for (unsigned i : order) {
    Load l = least.top();
    least.pop();
    lists[l.second].push_back(i);
    least.push({l.first + expected[i], l.second});
  }
  return lists;
}

std::vector<std::vector<unsigned>> share_roots(const std::vector<unsigned>& live, const std::vector<double>& expected,
                                               int gpus) {
  const size_t n = static_cast<size_t>(std::max(1, gpus));
  std::vector<std::vector<unsigned>> shares(n);
  if (n == 1) {
    shares[0] = live;
    return shares;
  }
  // Largest first (ties: the smaller root first, so that the shares do not depend on the
  // sort's stability), onto the least loaded GPU (ties: the lower GPU).
  std::vector<unsigned> order = live;
  std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) { return expected[a] > expected[b]; });
  shares = least_loaded(order, expected, n);
  for (auto& s : shares) std::sort(s.begin(), s.end());
  return shares;
}

IdaCombined combine_parts(const std::vector<IdaGpuPart>& parts) {
  IdaCombined c;
  unsigned long long work = 0;
  unsigned workers = 0;
  for (size_t k = 0; k < parts.size(); ++k) {
    const IdaGpuPart& p = parts[k];
    c.below.expanded += p.below.expanded;
    c.below.evaluated += p.below.evaluated;
    c.below.solutions += p.below.solutions;
    c.below.next_limit = std::min(c.below.next_limit, p.below.next_limit);
    c.donated += p.donated;
    c.stopped = c.stopped || p.stopped;
    if (p.below.solutions > 0 && c.solved_gpu < 0) c.solved_gpu = static_cast<int>(k);
    if (!p.searched) continue;
    c.max_work = std::max(c.max_work, p.max_work);
    work += p.work;
    workers += p.workers;
  }
  c.mean_work = workers ? static_cast<double>(work) / workers : 0.0;
  return c;
}

}  // namespace permjit
