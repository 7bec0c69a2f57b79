#include "runtime/device/device_solutions.hpp"

#include <algorithm>
#include <stdexcept>

#include "runtime/core/solution_list.hpp"

namespace permjit {

namespace {
// 64 Ki solutions at first: N-Queens 8 to 12 in one buffer, a few MB for size 64.
constexpr unsigned long long kFirstCapacity = 1ull << 16;
// At most a quarter of the device's free memory, and 1 GiB.
constexpr size_t kMaxBytes = 1ull << 30;
}  // namespace

DeviceSolutions::DeviceSolutions(const Decision& decision, int size) : decision_(decision), size_(size) {
  size_t free_b = 0, total_b = 0;
  cuda::check(cuda::api().MemGetInfo(&free_b, &total_b), "cuMemGetInfo");
  max_capacity_ = std::max<unsigned long long>(1, std::min(free_b / 4, kMaxBytes) / static_cast<size_t>(size_));
  const unsigned long long first = decision.device_buffer ? decision.device_buffer : kFirstCapacity;
  const unsigned long long want = decision.solution_limit ? std::min(decision.solution_limit, first) : first;
  allocate(std::min(want, max_capacity_));
}

void DeviceSolutions::allocate(unsigned long long capacity) {
  perms_ = std::make_unique<cuda::Buffer>(capacity * static_cast<size_t>(size_));
  capacity_ = capacity;
}

void DeviceSolutions::arm() {
  PjGpuSolutions b{};
  b.limit = decision_.solution_limit;
  b.drained = drained_;
  b.capacity = capacity_;
  b.perms = reinterpret_cast<unsigned char*>(perms_->ptr());
  block_.upload(&b, sizeof b);
}

DeviceSolutions::Launch DeviceSolutions::read() {
  PjGpuSolutions b{};
  block_.download(&b, sizeof b);
  Launch l;
  l.full = b.full != 0;
  l.stopped = b.stop != 0;
  // The slots below min(count, capacity, limit - drained) hold the solutions taken.
  l.taken = std::min(b.count, capacity_);
  if (b.limit) l.taken = std::min(l.taken, b.limit - drained_);
  requested_ = b.count;
  if (l.stopped) find_to_exit_ = b.exit_ns > b.found_ns ? static_cast<double>(b.exit_ns - b.found_ns) * 1e-9 : 0;
  return l;
}

void DeviceSolutions::commit(const Launch& l) {
  if (l.stopped) stopped_ = true;
  if (l.taken == 0) return;
  host_.resize(l.taken * static_cast<size_t>(size_));
  perms_->download(host_.data(), host_.size());
  std::vector<int> perm(static_cast<size_t>(size_));
  for (unsigned long long i = 0; i < l.taken; ++i) {
    for (int j = 0; j < size_; ++j) perm[static_cast<size_t>(j)] = host_[i * static_cast<size_t>(size_) + j];
    if (first_.empty()) first_ = perm;
    if (decision_.list) decision_.list->take(perm, 0);
  }
  drained_ += l.taken;
}

bool DeviceSolutions::grow() {
  if (capacity_ >= max_capacity_) return false;
  unsigned long long next = capacity_;
  while (next < requested_ && next < max_capacity_) next *= 2;
  allocate(std::min(std::max(next, capacity_ * 2), max_capacity_));
  return true;
}

void DeviceSolutions::after_round() {
  const Launch l = read();
  commit(l);
  if (l.full) grow();
}

bool DeviceSolutions::after_chunk(cuda::Buffer& results, const PjGpuResults& before, unsigned long long n,
                                  unsigned long long& chunk) {
  const Launch l = read();
  if (!l.full) {
    commit(l);
    return false;
  }
  results.upload(&before, sizeof before);
  if (grow()) return true;
  if (n == 1)
    throw std::runtime_error("one subtree of the frontier holds more solutions than the device buffer takes (1 GiB): "
                             "list with --skeleton ivm or cpu");
  chunk = std::max<unsigned long long>(1, n / 2);
  return true;
}

void DeviceSolutions::report(SolveResult& r, bool optimise) const {
  r.reached_limit = stopped_;
  r.find_to_exit = find_to_exit_;
  if (!optimise && !first_.empty()) {  // find: the first solution taken
    r.found = true;
    r.permutation = first_;
  }
}

}  // namespace permjit
