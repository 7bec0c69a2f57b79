// A number of seconds from now as a deadline of a steady clock, shared by the host and
// the cpu modules. steady_clock counts nanoseconds in 64 bits: `now + 1e10 s` passes
// 2^63 and wraps into the past, so a search with `--time-limit 1e10` (or `inf`) stopped
// at once. A limit past kForeverSeconds (about 31 years) is no limit: the deadline is
// the clock's end. The options refuse NaN and negative seconds before a search starts.
#pragma once
#include <chrono>

namespace pj {

constexpr double kForeverSeconds = 1e9;

template <class Clock>
typename Clock::time_point deadline_after(typename Clock::time_point now, double seconds) {
  if (!(seconds < kForeverSeconds)) return Clock::time_point::max();  // also inf
  if (!(seconds > 0)) return now;
  return now + std::chrono::duration_cast<typename Clock::duration>(std::chrono::duration<double>(seconds));
}

}  // namespace pj
