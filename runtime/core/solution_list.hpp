// Where listed solutions go (`solve --list`, `--all-optimal`): one line per solution,
// values in position order, written as the search finds them, to stdout or --out FILE.
// Threads of the cpu skeleton and the host loops that drain a GPU skeleton's device
// buffer hand solutions here; it keeps the count and refuses solutions past its limit,
// so that what is listed is exactly what the result counts.
#pragma once
#include <chrono>
#include <cstdio>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace permjit {

enum class ListFormat { lines, json };

class SolutionList {
 public:
  // A program that takes the solutions itself (the Python package's iterator): called
  // under the list's lock, from the search's threads; false stops the search as a limit
  // does (the consumer wants no more).
  using Sink = std::function<bool(std::span<const int> perm, long long objective)>;

  // `out` empty: stdout. `limit` 0: no limit. Throws a located user error when `out`
  // cannot be written. The file is opened (and emptied) at the first solution or at
  // finish(), not here: the list is made before the module compiles, and a run that
  // ends during the compile (a signal, a compile error) left the user's file empty.
  SolutionList(const std::string& out, ListFormat format, unsigned long long limit, bool with_objective);
  // Solutions go to `sink` instead of a file; destination() is "sink".
  SolutionList(Sink sink, unsigned long long limit, bool with_objective);
  ~SolutionList();
  SolutionList(const SolutionList&) = delete;
  SolutionList& operator=(const SolutionList&) = delete;

  // Writes one solution; false, writing nothing, once `limit` solutions were taken.
  // With an expansion, the solution and each image it stands for (one line each, the
  // limit counting lines): false when the solution itself could not be taken.
  bool take(std::span<const int> perm, long long objective);
  // What a found solution stands for under a declared symmetry (runtime/core/symmetry_orbit.hpp).
  void set_expansion(std::function<std::vector<std::vector<int>>(std::span<const int>)> e) { expansion_ = std::move(e); }
  unsigned long long taken() const;
  // Whether the limit left out images of a solution that was taken.
  bool truncated() const;
  // Flushes what was written; throws when the output could not be written (disk full).
  void finish();
  const std::string& destination() const { return shown_; }

 private:
  mutable std::mutex lock_;
  std::FILE* file_ = nullptr;
  Sink sink_;
  bool closed_ = false;  // the sink declined a solution
  bool owned_ = false;
  std::string out_;  // --out, opened by open(); empty: stdout
  // Under lock_: opens --out; false when it cannot (open_error_ says why). take() is
  // called from the search's threads through a C interface, so it does not throw.
  bool open();
  bool take_one(std::span<const int> perm, long long objective);  // under lock_
  std::function<std::vector<std::vector<int>>(std::span<const int>)> expansion_;
  bool truncated_ = false;
  std::string open_error_;
  std::string shown_;  // "stdout" or the file's name
  ListFormat format_;
  unsigned long long limit_, taken_ = 0;
  bool with_objective_;
  std::string line_;
  std::chrono::steady_clock::time_point last_flush_;
};

}  // namespace permjit
