// Threads of a cpu module, started all or none. `--threads 100000` asked for more
// threads than the host starts: std::thread threw std::system_error with threads of the
// team already running, and the vector of joinable threads ended the process in
// std::terminate. A team is started behind a gate: if one thread does not start, the
// others are let go without work and joined, and pj::NoThreads says how many were asked
// for. The module's entry points turn it into a return code (PJ_CPU_NO_THREADS) that
// the host reports as a user error at --threads.
#pragma once
#include <condition_variable>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

namespace pj {

struct NoThreads {
  int asked;
};

// What an entry point returns when it could not start its threads, or ran out of memory.
constexpr int kNoThreadsCode = 10;
constexpr int kNoMemoryCode = 11;
// What a frontier's build returns when the host asked it to stop (a signal) before it ended.
constexpr int kStoppedCode = 12;

// An entry point's body, with what it may throw as a return code: no exception crosses
// the C interface to the host.
template <class F>
int guarded(F&& body) noexcept {
  try {
    return body();
  } catch (const NoThreads&) {
    return kNoThreadsCode;
  } catch (const std::bad_alloc&) {
    return kNoMemoryCode;
  }
}

// Runs body(t) for t in 0..n-1: body(0) on the calling thread, the others each on a
// thread of its own; returns when all have returned. Throws NoThreads, having run no
// body, when the host cannot start them all.
template <class Body>
void run_team(int n, Body&& body) {
  std::mutex m;
  std::condition_variable cv;
  enum { waiting, go, cancelled } state = waiting;
  std::vector<std::thread> team;
  try {
    team.reserve(n > 1 ? static_cast<size_t>(n - 1) : 0);
    for (int t = 1; t < n; ++t)
      team.emplace_back([&, t] {
        {
          std::unique_lock<std::mutex> g(m);
          cv.wait(g, [&] { return state != waiting; });
          if (state == cancelled) return;
        }
        body(t);
      });
  } catch (const std::system_error&) {
  } catch (const std::bad_alloc&) {
  }
  const bool all = team.size() + 1 >= static_cast<size_t>(n);
  {
    std::lock_guard<std::mutex> g(m);
    state = all ? go : cancelled;
  }
  cv.notify_all();
  if (all) {
    try {
      body(0);
    } catch (...) {  // joined first: a joinable std::thread destroyed ends the process
      for (auto& th : team) th.join();
      throw;
    }
  }
  for (auto& th : team) th.join();
  if (!all) throw NoThreads{n};
}

}  // namespace pj
