// Asks a long-running kernel to return early, for progress lines, checkpoints and
// SIGINT/SIGTERM. A thread of its own writes the current round number into the
// kernel's stop word with an asynchronous copy on a stream of its own: a copy engine
// moves it while the kernel runs, and the kernel sees it at its next poll. Round
// numbers only grow, so a request that lands late stops nothing it should not.
#pragma once
#include <cuda.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace permjit {

class KernelInterrupter {
 public:
  using clock = std::chrono::steady_clock;
  // stop_word: a device unsigned int the kernel polls.
  KernelInterrupter(CUcontext ctx, CUdeviceptr stop_word);
  ~KernelInterrupter();
  KernelInterrupter(const KernelInterrupter&) = delete;
  KernelInterrupter& operator=(const KernelInterrupter&) = delete;

  // The round about to run; requests from now on stop it.
  void begin_round(unsigned round);
  // Stop the running round once `t` has passed (progress or checkpoint due).
  void stop_at(clock::time_point t);
  // Stop the running round now (another thread may call it: a GPU asked for work).
  void stop_now() { stop_at(clock::time_point{}); }
  // A device error seen on the thread, rethrown here (call after each round).
  void rethrow_error();

 private:
  void run();

  CUcontext ctx_;
  CUdeviceptr word_;
  std::atomic<unsigned> round_{0};
  std::atomic<unsigned> stopped_{0};  // the last round a request was sent for
  std::atomic<long long> deadline_ns_;
  std::atomic<bool> quit_{false};
  std::mutex m_;
  std::condition_variable cv_;
  std::string error_;
  std::thread thread_;
};

// SIGINT and SIGTERM set a flag instead of ending the process, while an object lives.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  static bool requested();
  // Whether a search listens now (an object exists): not while a module compiles, when
  // SIGINT and SIGTERM end the run (runtime/compile/host_compiler.cpp). Tests time signals by it.
  static bool listening();
  static int signal_number();  // the signal that asked, 0 if none
  // The flag itself, for a search that polls it (PjCpuArgs::stop_request).
  static const volatile int* flag();

 private:
  void (*previous_int_)(int);  // restored when the object goes
  void (*previous_term_)(int);
};

}  // namespace permjit
