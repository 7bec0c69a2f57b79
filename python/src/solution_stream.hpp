// permjit.solutions(): a search on a thread of its own whose listed solutions (the
// runtime's SolutionList, as `solve --list` writes them) are queued for Python to take
// one at a time. The queue is bounded: a consumer that reads slowly pauses the search;
// one that stops reading (close) stops it at its next solution.
#pragma once
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "runtime/solve.hpp"

namespace permjit::py {

class SolutionStream {
 public:
  using Solution = std::pair<std::vector<int>, long long>;  // permutation, objective
  explicit SolutionStream(SolveOptions opts);
  ~SolutionStream();
  SolutionStream(const SolutionStream&) = delete;
  SolutionStream& operator=(const SolutionStream&) = delete;

  // Waits for the next solution; nullopt once the search has ended (call without the GIL).
  std::optional<Solution> next();
  // No more solutions wanted: the search stops at its next one; waits for its end.
  void close();
  // The search's result as `solve --json` prints it, once next() returned nullopt;
  // rethrows the search's error (a SpecError is raised here, at the first next()).
  std::string result_json();

 private:
  static constexpr size_t kCapacity = 4096;
  bool take(std::span<const int> perm, long long objective);

  std::mutex m_;
  std::condition_variable cv_;
  std::deque<Solution> queue_;
  bool closed_ = false, done_ = false;
  std::exception_ptr error_;
  std::string json_;
  std::thread thread_;
};

}  // namespace permjit::py
