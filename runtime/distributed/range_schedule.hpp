// Which subtrees of a frontier are still to search, handed out as ranges of frontier
// indices to workers (threads of one process, or MPI ranks: runtime/backtrack/cpu_mpi.cpp). The
// chunks shrink as the work runs out (guided self-scheduling): a range is a share of
// what is left divided among the workers, so early ranges are large (few requests) and
// the last ones small (workers finish together). No range is larger than 1/(kCap W) of
// the frontier, so that a run stopped (a signal, a time limit) loses at most about
// 1/kCap of its work: the ranges in flight, which a resume searches again.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

namespace permjit {

struct Range {
  uint64_t begin = 0, end = 0;  // frontier indices [begin, end)
  uint64_t size() const { return end - begin; }
  bool operator==(const Range&) const = default;
};

class RangeSchedule {
 public:
  // A frontier of `size` subtrees, those in `done` already searched (a checkpoint's),
  // shared by `workers` workers.
  RangeSchedule(uint64_t size, const std::vector<Range>& done, int workers);

  // The next range to hand out, or none when every subtree has been handed out.
  std::optional<Range> next();
  // A range handed out was searched to its end.
  void finish(Range r);

  // The ranges searched to their end, sorted and merged.
  const std::vector<Range>& done() const { return done_; }
  uint64_t size() const { return size_; }
  uint64_t finished() const { return finished_; }
  uint64_t handed_out() const { return handed_out_; }
  bool all_finished() const { return finished_ == size_; }

  // A share of what is left per worker, each time a range is handed out.
  static constexpr uint64_t kShare = 4;
  static constexpr uint64_t kCap = 16;

 private:
  uint64_t size_;
  int workers_;
  std::vector<Range> todo_;  // not yet handed out, in order
  std::vector<Range> done_;
  uint64_t left_ = 0, finished_ = 0, handed_out_ = 0;
};

// The complement of `done` (sorted, merged) in [0, size): what is left to search.
std::vector<Range> ranges_left(uint64_t size, const std::vector<Range>& done);
// `r` added to a sorted list of disjoint ranges, merged with its neighbours.
void merge_range(std::vector<Range>& list, Range r);

}  // namespace permjit
