#include "runtime/device/kernel_interrupter.hpp"

#include <atomic>
#include <csignal>
#include <type_traits>

#include "runtime/device/cuda_driver.hpp"

namespace permjit {

namespace {
volatile std::sig_atomic_t g_stop_signal = 0;
extern "C" void on_stop_signal(int sig) { g_stop_signal = sig; }
std::atomic<int> g_listening{0};

long long to_ns(KernelInterrupter::clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}
}  // namespace

KernelInterrupter::KernelInterrupter(CUcontext ctx, CUdeviceptr stop_word)
    : ctx_(ctx), word_(stop_word), deadline_ns_(to_ns(clock::time_point::max())) {
  thread_ = std::thread([this] { run(); });
}

KernelInterrupter::~KernelInterrupter() {
  quit_ = true;
  cv_.notify_all();
  thread_.join();
}

void KernelInterrupter::begin_round(unsigned round) { round_ = round; }

void KernelInterrupter::stop_at(clock::time_point t) {
  deadline_ns_ = to_ns(t);
  // The thread looks every 20 ms anyway: woken for a deadline still ahead it would find
  // nothing due and wait again. So only a deadline already passed wakes it, and the ivm
  // skeleton's rounds, each of which sets one (thousands a second where they are short),
  // make no wake-up call each.
  if (t <= clock::now()) cv_.notify_all();
}

void KernelInterrupter::rethrow_error() {
  std::lock_guard<std::mutex> g(m_);
  if (!error_.empty()) throw cuda::Error(error_);
}

void KernelInterrupter::run() {
  try {
    cuda::check(cuda::api().CtxSetCurrent(ctx_), "cuCtxSetCurrent (interrupter thread)");
    CUstream stream = nullptr;
    cuda::check(cuda::api().StreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate (interrupter)");
    unsigned* pinned = nullptr;
    cuda::check(cuda::api().MemAllocHost(reinterpret_cast<void**>(&pinned), sizeof(unsigned)), "cuMemAllocHost");
    std::unique_lock<std::mutex> lock(m_);
    while (!quit_) {
      // Signals cannot wake a condition variable: look every 20 ms.
      cv_.wait_for(lock, std::chrono::milliseconds(20));
      if (quit_) break;
      const unsigned round = round_;
      const bool due = g_stop_signal != 0 || to_ns(clock::now()) >= deadline_ns_;
      if (!due || round == 0 || stopped_ == round) continue;
      *pinned = round;
      cuda::check(cuda::api().MemcpyHtoDAsync(word_, pinned, sizeof(unsigned), stream), "cuMemcpyHtoDAsync (stop word)");
      cuda::check(cuda::api().StreamSynchronize(stream), "cuStreamSynchronize (interrupter)");
      stopped_ = round;
    }
    cuda::api().MemFreeHost(pinned);
    cuda::api().StreamDestroy(stream);
  } catch (const std::exception& e) {
    std::lock_guard<std::mutex> g(m_);
    error_ = e.what();
  }
}

StopSignals::StopSignals() {
  g_stop_signal = 0;
  previous_int_ = std::signal(SIGINT, on_stop_signal);
  previous_term_ = std::signal(SIGTERM, on_stop_signal);
  ++g_listening;
}

StopSignals::~StopSignals() {
  // The handlers from before (the default ones in the command line; a program that
  // embeds permjit keeps its own).
  std::signal(SIGINT, previous_int_ == SIG_ERR ? SIG_DFL : previous_int_);
  std::signal(SIGTERM, previous_term_ == SIG_ERR ? SIG_DFL : previous_term_);
  g_stop_signal = 0;  // a later search in this process starts unasked
  --g_listening;
}

bool StopSignals::listening() { return g_listening.load() > 0; }

bool StopSignals::requested() { return g_stop_signal != 0; }
int StopSignals::signal_number() { return g_stop_signal; }
static_assert(std::is_same_v<std::sig_atomic_t, int>, "PjCpuArgs::stop_request reads the flag as an int");
const volatile int* StopSignals::flag() { return &g_stop_signal; }

}  // namespace permjit
