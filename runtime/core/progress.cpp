#include "runtime/core/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstdio>

namespace permjit {

// The explored share with as many decimals as it takes not to round what is left away:
// pruning-heavy searches (ATSP, 50-job flowshops) pass 99.9% of the leaves long before
// they end, and "100.0%" for minutes said nothing.
std::string explored_share(double explored) {
  int decimals = 1;
  while (decimals < 9 && explored < 1 && 100.0 * (1.0 - explored) < 2 * std::pow(10.0, -decimals)) ++decimals;
  return fmt::format("{:{}.{}f}%", 100.0 * explored, 4 + decimals, decimals);
}

std::string format_progress(const std::string& who, const ProgressSample& s, double rate) {
  std::string line = fmt::format("{}  {} explored  {:.3g} nodes/s", who, explored_share(s.explored), rate);
  if (s.incumbent) line += fmt::format("  incumbent {}", *s.incumbent);
  if (s.bound) line += fmt::format("  bound {}", *s.bound);
  if (s.incumbent && s.bound) line += fmt::format("  gap {}", std::llabs(*s.incumbent - *s.bound));
  line += fmt::format("  {:.1f} s elapsed", s.elapsed);
  if (s.idle) line += fmt::format("  idle {:.0f}%", 100 * *s.idle);
  return line;
}

std::string format_progress_json(const std::string& who, const ProgressSample& s) {
  auto opt = [](const std::optional<long long>& v) { return v ? std::to_string(*v) : std::string("null"); };
  const std::string gap = s.incumbent && s.bound ? std::to_string(std::llabs(*s.incumbent - *s.bound)) : "null";
  // The idle share only where the skeleton measures it.
  const std::string idle = s.idle ? fmt::format(",\"idle\":{:.4f}", *s.idle) : "";
  return fmt::format(
      "{{\"progress\":\"{}\",\"elapsed_s\":{:.3f},\"explored\":{:.9f},\"evaluated\":{},\"incumbent\":{},"
      "\"bound\":{},\"gap\":{}{}}}",
      who, s.elapsed, s.explored, s.evaluated, opt(s.incumbent), opt(s.bound), gap, idle);
}

void ProgressMeter::print(const ProgressSample& s) {
  if (sink_) {
    sink_(s);
    last_elapsed_ = s.elapsed;
    return;
  }
  double dt = s.elapsed - last_elapsed_;
  const unsigned long long before = last_evaluated_.value_or(s.evaluated);
  double rate = dt > 0 && last_evaluated_ ? static_cast<double>(s.evaluated - before) / dt : 0.0;
  std::string line = format_progress(who_, s, rate);
  // On a terminal the line is rewritten in place; into a file or pipe each is a line.
  if (stderr_is_terminal())
    std::fprintf(stderr, "\r%s\033[K", line.c_str());
  else
    std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
  last_elapsed_ = s.elapsed;
  last_evaluated_ = s.evaluated;
  printed_ = true;
}

void ProgressMeter::finish() {
  if (printed_ && stderr_is_terminal()) std::fprintf(stderr, "\n");
  printed_ = false;
}

bool stderr_is_terminal() { return isatty(STDERR_FILENO) != 0; }

}  // namespace permjit
