// Progress of a long search on stderr: what share of the leaves is behind the explorers,
// the node rate, the incumbent, a proven bound and the gap when the skeleton has them,
// and the time spent, at most once a second. Skeletons that know their explored share
// (`ivm`) feed it. No estimate of the time left: the share counts pruned ranges as
// explored, so it passes 90% long before a pruning search ends, and a time estimate
// from it was known to be wrong (docs/reliability.md, "Partial answers").
#pragma once
#include <functional>
#include <optional>
#include <string>

namespace permjit {

struct ProgressSample {
  double elapsed = 0;           // seconds since the search started (all runs)
  double explored = 0;          // share of the leaves behind the explorers, 0..1
  unsigned long long evaluated = 0;
  std::optional<long long> incumbent;
  std::optional<long long> bound;  // proven: nothing is better (the root's bound while nothing tighter is known)
  // The share of the explorers' time idle since the previous line (`ivm`: runtime/ivm/ivm_idle.hpp).
  std::optional<double> idle;
};

// "ivm  37.2% explored  2.10e+09 nodes/s  incumbent 39  bound 35  gap 4  12.3 s elapsed  idle 8%";
// `rate` is the evaluated nodes per second since the previous line.
std::string format_progress(const std::string& who, const ProgressSample& s, double rate);
// The sample as one line of JSON (--json with --progress streams these on stderr).
std::string format_progress_json(const std::string& who, const ProgressSample& s);

class ProgressMeter {
 public:
  // enabled: --progress, or stderr is a terminal and not --quiet.
  ProgressMeter(std::string who, bool enabled, double period_s = 1.0) : who_(std::move(who)), on_(enabled), period_(period_s) {}
  // Samples go to `sink` instead of stderr (a program's own display).
  ProgressMeter(std::string who, std::function<void(const ProgressSample&)> sink, double period_s = 1.0)
      : who_(std::move(who)), on_(true), period_(period_s), sink_(std::move(sink)) {}
  bool enabled() const { return on_; }
  // The search starts (or resumes) at `elapsed` seconds.
  void start(double elapsed) { last_elapsed_ = elapsed; }
  // When the next line is due.
  double next_due() const { return last_elapsed_ + period_; }
  // Whether a line is due at `elapsed` (at most one per period).
  bool due(double elapsed) const { return on_ && elapsed - last_elapsed_ >= period_; }
  // Prints a line (and remembers it for the next rate).
  void print(const ProgressSample& s);
  // Ends the progress line so that the result starts on its own line.
  void finish();

 private:
  std::string who_;
  bool on_;
  double period_;
  double last_elapsed_ = 0;
  std::optional<unsigned long long> last_evaluated_;  // unknown before the first line
  bool printed_ = false;
  std::function<void(const ProgressSample&)> sink_;
};

// Whether progress is shown by default: stderr is a terminal.
bool stderr_is_terminal();

}  // namespace permjit
