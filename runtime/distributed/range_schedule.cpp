#include "runtime/distributed/range_schedule.hpp"

#include <algorithm>

#include "dsl/diagnostics.hpp"

namespace permjit {

void merge_range(std::vector<Range>& list, Range r) {
  if (r.size() == 0) return;
  auto at = std::lower_bound(list.begin(), list.end(), r, [](const Range& a, const Range& b) { return a.begin < b.begin; });
  at = list.insert(at, r);
  // Joined with the one before and the ones after that it touches.
  if (at != list.begin() && std::prev(at)->end >= at->begin) {
    PJ_INTERNAL_ASSERT(std::prev(at)->end == at->begin, "a frontier range finished twice");
    std::prev(at)->end = std::max(std::prev(at)->end, at->end);
    at = std::prev(list.erase(at));
  }
  while (std::next(at) != list.end() && std::next(at)->begin <= at->end) {
    PJ_INTERNAL_ASSERT(std::next(at)->begin == at->end, "a frontier range finished twice");
    at->end = std::max(at->end, std::next(at)->end);
    list.erase(std::next(at));
  }
}

std::vector<Range> ranges_left(uint64_t size, const std::vector<Range>& done) {
  std::vector<Range> left;
  uint64_t at = 0;
  for (const Range& d : done) {
    if (d.begin > at) left.push_back({at, d.begin});
    at = std::max(at, d.end);
  }
  if (at < size) left.push_back({at, size});
  return left;
}

RangeSchedule::RangeSchedule(uint64_t size, const std::vector<Range>& done, int workers)
    : size_(size), workers_(std::max(1, workers)) {
  for (const Range& d : done) {
    PJ_INTERNAL_ASSERT(d.begin < d.end && d.end <= size, "a finished range outside the frontier");
    merge_range(done_, d);
  }
  for (const Range& d : done_) finished_ += d.size();
  todo_ = ranges_left(size, done_);
  left_ = size - finished_;
}

std::optional<Range> RangeSchedule::next() {
  if (todo_.empty()) return std::nullopt;
  const uint64_t w = static_cast<uint64_t>(workers_);
  const uint64_t share = std::max<uint64_t>(1, std::min(left_ / (kShare * w), size_ / (kCap * w)));
  Range& front = todo_.front();
  Range r{front.begin, front.begin + std::min(share, front.size())};
  front.begin = r.end;
  if (front.size() == 0) todo_.erase(todo_.begin());
  left_ -= r.size();
  ++handed_out_;
  return r;
}

void RangeSchedule::finish(Range r) {
  merge_range(done_, r);
  finished_ += r.size();
}

}  // namespace permjit
