#include "runtime/ivm/ivm_device.hpp"

#include <chrono>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdlib>

#include <fmt/format.h>

#include "dsl/diagnostics.hpp"
#include "runtime/device/device_solutions.hpp"
#include "runtime/device/kernel_interrupter.hpp"
#include "runtime/device/run_time_data.hpp"
#include "runtime/ivm/ivm_exchange.hpp"
#include "templates/host_deadline.hpp"

namespace permjit {

namespace {
using clock_type = std::chrono::steady_clock;

// The kernels' view of the explorers (pj_ivm::layout::Explorers, templates/ivm_explorer.h).
struct ExplorersArg {
  CUdeviceptr I, V, M, last, ends;
  unsigned long long T;
};
ExplorersArg arg_of(const ExplorerArrays& a) { return {a.I.ptr(), a.V.ptr(), a.M.ptr(), a.last.ptr(), a.ends.ptr(), a.T}; }

void launch(CUfunction f, unsigned long long threads, int block, void** args, const char* name, size_t shared = 0) {
  unsigned grid = static_cast<unsigned>((threads + block - 1) / block);
  cuda::check(cuda::api().LaunchKernel(f, grid, 1, 1, block, 1, 1, static_cast<unsigned>(shared), nullptr, args, nullptr),
              std::string("launching ivm kernel ") + name);
}

// Runs launches on the default stream between two events and returns their seconds; a
// failure names the kernel.
template <class Launches>
double timed(cuda::EventTimer& timer, const char* what, Launches&& launches) {
  timer.start();
  launches();
  try {
    return timer.stop_seconds();
  } catch (const cuda::Error& e) {
    throw cuda::Error(std::string("the ivm ") + what + " failed: " + e.what());
  }
}

// Hypercube digits for T explorers in base p: the fewest with p^dims >= T.
int hypercube_dims(unsigned long long T, unsigned p) {
  int dims = 0;
  for (unsigned long long reach = 1; reach < T; reach *= p) ++dims;
  return std::max(dims, 1);
}
constexpr unsigned kHypercubeBase = 8;
}  // namespace

std::string IvmBalance::describe() const {
  std::string s =
      std::string("victims=") + (victims == Victims::log ? "log" : "mean") + ",passes=" + std::to_string(passes);
  if (slice) s += ",slice=" + fmt::format("{:g}", *slice);
  if (trigger > 0) s += ",trigger=" + fmt::format("{:g}", trigger);
  return s;
}

IvmBalance parse_ivm_balance(const std::string& text) {
  IvmBalance b;
  const std::string shown = "PERMJIT_IVM_BALANCE=" + text;
  size_t at = 0;
  auto bad = [&](const std::string& part) {
    command_line_error(shown, static_cast<int>(20 + at + 1), "cannot read '" + part + "'",
                       "PERMJIT_IVM_BALANCE takes victims=mean|log, passes=N (1 to 16), slice=S (seconds, 0: "
                       "uncut) and trigger=F (a share of the explorers), separated by commas");
  };
  while (at <= text.size() && !text.empty()) {
    size_t end = text.find(',', at);
    if (end == std::string::npos) end = text.size();
    const std::string part = text.substr(at, end - at);
    if (part == "victims=mean") b.victims = IvmBalance::Victims::mean;
    else if (part == "victims=log") b.victims = IvmBalance::Victims::log;
    else if (part.rfind("passes=", 0) == 0) {
      const std::string n = part.substr(7);
      if (n.empty() || n.size() > 2 || n.find_first_not_of("0123456789") != std::string::npos) bad(part);
      b.passes = std::stoi(n);
      if (b.passes < 1 || b.passes > 16) bad(part);
    } else if (part.rfind("slice=", 0) == 0 || part.rfind("trigger=", 0) == 0) {
      const bool slice = part[0] == 's';
      const std::string n = part.substr(slice ? 6 : 8);
      char* end_num = nullptr;
      const double x = std::strtod(n.c_str(), &end_num);
      if (n.empty() || *end_num != '\0' || !(x >= 0) || (!slice && x == 0) || x > (slice ? 60.0 : 1.0)) bad(part);
      if (slice) b.slice = x;
      else b.trigger = x;
    } else {
      bad(part);
    }
    at = end + 1;
  }
  return b;
}

double victim_threshold(IvmBalance::Victims rule, double remaining, double log_remaining, unsigned long long active,
                        unsigned long long T) {
  if (rule == IvmBalance::Victims::log)
    return active > 0 ? std::exp2(log_remaining / static_cast<double>(active)) : 0.0;
  return remaining / static_cast<double>(T);
}

ExplorerArrays::ExplorerArrays(unsigned long long t, int levels, int mb)
    : T(t), L(static_cast<size_t>(levels)), mask_bytes(static_cast<size_t>(mb)), I(T), V(L * T),
      M(L * T * mask_bytes), last(L * T), ends(T * 8) {}

std::string ExplorerArrays::download() const {
  std::string s(bytes(), '\0');
  size_t at = 0;
  for (const cuda::Buffer* b : {&I, &V, &M, &last, &ends}) {
    b->download(s.data() + at, b->bytes());
    at += b->bytes();
  }
  return s;
}

void ExplorerArrays::upload(const std::string& s) {
  size_t at = 0;
  for (cuda::Buffer* b : {&I, &V, &M, &last, &ends}) {
    b->upload(s.data() + at, b->bytes());
    at += b->bytes();
  }
}

size_t ExplorerArrays::bytes() const { return bytes_for(T, static_cast<int>(L), static_cast<int>(mask_bytes)); }

size_t ExplorerArrays::bytes_for(unsigned long long T, int levels, int mask_bytes) {
  const size_t L = static_cast<size_t>(levels);
  return T + L * T + L * T * static_cast<size_t>(mask_bytes) + L * T + T * 8;
}

IvmDevice::IvmDevice(CUcontext ctx, std::unique_ptr<cuda::Module> module, const std::string& cubin,
                     const IvmShape& shape, const std::vector<RunTimeArray>& data)
    : ctx_(ctx), shape_(shape), module_(module ? std::move(module) : std::make_unique<cuda::Module>(cubin)),
      ex_(shape.T, shape.levels, shape.mask_bytes), results_(sizeof(PjGpuResults)), control_(sizeof(PjIvmControl)),
      lengths_(shape.T * sizeof(double)), victim_(shape.T * sizeof(long long)), claimed_(shape.T * sizeof(int)),
      starts_(shape.T * static_cast<size_t>(shape.levels) * shape.assign_start_bytes),
      counts_(4 * sizeof(unsigned)), slots_(shape.T * sizeof(unsigned long long)),
      hypercube_dims_(hypercube_dims(shape.T, kHypercubeBase)), idle_(shape.T) {
  upload_data(data, *module_);
  k_init_ = module_->function("pj_ivm_init");
  k_select_ = module_->function("pj_ivm_select");
  k_steal_ = module_->function("pj_ivm_steal");
  k_export_ = module_->function("pj_ivm_export");
  k_free_slots_ = module_->function("pj_ivm_free_slots");
  k_merge_ = module_->function("pj_ivm_merge");
  k_explore_ = module_->function("pj_ivm_explore");
  if (shape.shared_rows) cuda::allow_dynamic_shared(k_explore_, shape.shared_bytes, "pj_ivm_explore");
  claimed_.zero();
  control_.zero();
  starts_.zero();  // any content is a safe start; zeros make runs repeat
  if (shape.slice > 0)
    interrupter_ = std::make_unique<KernelInterrupter>(ctx_, control_.ptr() + offsetof(PjIvmControl, stop_round));
}

IvmDevice::~IvmDevice() = default;

void IvmDevice::start_results(const PjGpuResults& results) { results_.upload(&results, sizeof results); }

void IvmDevice::start(const PjGpuResults& results, unsigned long long offset, unsigned long long parts, bool root) {
  start_results(results);
  if (parts == 0 && !root) return;  // dry until given work
  ExplorersArg e = arg_of(ex_);
  CUdeviceptr results_p = results_.ptr();
  int root_flag = root ? 1 : 0;
  void* args[] = {&e, &offset, &parts, &root_flag, &results_p};
  stats_.t_balance += timed(timer_, "init kernel pj_ivm_init", [&] { launch(k_init_, shape_.T, shape_.block, args, "pj_ivm_init"); });
  dry_ = false;
}

PjGpuResults IvmDevice::results() {
  PjGpuResults r{};
  results_.download(&r, sizeof r);
  return r;
}

IvmRound IvmDevice::explore() {
  DeviceSolutions* drain = solutions_;
  CUdeviceptr solutions = drain ? drain->block() : 0;
  unsigned round = static_cast<unsigned>(++stats_.rounds);
  if (interrupter_) {
    interrupter_->begin_round(round);
    interrupter_->stop_at(pj::deadline_after<clock_type>(clock_type::now(), shape_.slice));
  }
  PjIvmControl reset{};
  reset.trigger = static_cast<unsigned>(std::min<unsigned long long>(shape_.trigger, UINT_MAX));
  // The steal count runs on, and the stop word is the interrupter's.
  control_.upload(&reset, offsetof(PjIvmControl, steals));
  ExplorersArg e = arg_of(ex_);
  CUdeviceptr control_p = control_.ptr(), results_p = results_.ptr(), lengths_p = lengths_.ptr();
  CUdeviceptr starts = shape_.assign_start_bytes ? starts_.ptr() : 0;
  void* args[] = {&e, &control_p, &results_p, &lengths_p, &round, &solutions, &starts};
  if (drain) drain->arm();
  const double kernel_s = timed(timer_, "exploration kernel pj_ivm_explore", [&] {
    launch(k_explore_, shape_.T, shape_.block, args, "pj_ivm_explore", shape_.shared_bytes);
  });
  stats_.t_kernels += kernel_s;
  if (interrupter_) interrupter_->rethrow_error();
  PjIvmControl ctl{};
  control_.download(&ctl, sizeof ctl);
  stats_.steals = ctl.steals;
  remaining_ = ctl.remaining;
  log_remaining_ = ctl.log_remaining;
  active_ = ctl.active;
  if (drain) drain->after_round();
  IvmRound out;
  out.remaining = ctl.remaining;
  out.active = ctl.active > 0;
  out.hungry = ctl.active < shape_.T / 2;
  out.answered = drain && drain->stopped();
  out.results = results();
  idle_.add_round(kernel_s, ctl.busy_start, ctl.busy_ns, ctl.steals, out.results.evaluated);
  stats_.idle = idle_.total();
  return out;
}

void IvmDevice::set_best(int best) { results_.upload(&best, sizeof best, offsetof(PjGpuResults, best)); }

std::string IvmDevice::merge(const std::string& image) {
  if (!in_) in_.emplace(shape_.T, shape_.levels, shape_.mask_bytes);
  in_->upload(image);
  counts_.zero();
  ExplorersArg e = arg_of(ex_), in = arg_of(*in_);
  CUdeviceptr slots_p = slots_.ptr(), counts_p = counts_.ptr(), lengths_p = lengths_.ptr();
  void* slot_args[] = {&e, &slots_p, &counts_p};
  void* merge_args[] = {&e, &in, &slots_p, &counts_p, &lengths_p};
  stats_.t_balance += timed(timer_, "merge kernels pj_ivm_free_slots/pj_ivm_merge", [&] {
    launch(k_free_slots_, shape_.T, shape_.block, slot_args, "pj_ivm_free_slots");
    launch(k_merge_, shape_.T, shape_.block, merge_args, "pj_ivm_merge");
  });
  unsigned counts[4] = {};
  counts_.download(counts, sizeof counts);
  dry_ = false;
  return counts[2] ? in_->download() : std::string();
}

std::shared_ptr<void> IvmDevice::interruptible_by(IvmPeers& peers, int worker) {
  if (!interrupter_) return nullptr;
  peers.when_asked(worker, [this] { interrupter_->stop_now(); });
  return std::shared_ptr<void>(nullptr, [&peers, worker](void*) { peers.when_asked(worker, nullptr); });
}

void IvmDevice::balance() {
  ExplorersArg e = arg_of(ex_);
  CUdeviceptr lengths_p = lengths_.ptr(), victim_p = victim_.ptr(), claimed_p = claimed_.ptr(),
              control_p = control_.ptr(), results_p = results_.ptr();
  unsigned base = kHypercubeBase;
  int digits = hypercube_dims_;
  double threshold = victim_threshold(shape_.balance.victims, remaining_, log_remaining_, active_, shape_.T);
  const int passes = shape_.balance.passes;
  unsigned salt = 0;  // other far probes in each pass (pick_victim)
  void* select_args[] = {&e, &lengths_p, &victim_p, &claimed_p, &threshold, &base, &digits, &salt};
  void* steal_args[] = {&e, &victim_p, &claimed_p, &control_p, &results_p, &lengths_p};
  stats_.t_balance += timed(timer_, "work-stealing kernels pj_ivm_select/pj_ivm_steal", [&] {
    for (int k = 0; k < passes; ++k) {
      salt = static_cast<unsigned>(stats_.rounds * static_cast<unsigned long long>(passes) + static_cast<unsigned>(k));
      launch(k_select_, shape_.T, shape_.block, select_args, "pj_ivm_select");
      launch(k_steal_, shape_.T, shape_.block, steal_args, "pj_ivm_steal");
    }
  });
}

std::string IvmDevice::export_half() {
  if (!out_) out_.emplace(shape_.T, shape_.levels, shape_.mask_bytes);
  counts_.zero();
  ExplorersArg e = arg_of(ex_), out = arg_of(*out_);
  CUdeviceptr given_p = counts_.ptr(), results_p = results_.ptr();
  void* args[] = {&e, &out, &given_p, &results_p};
  stats_.t_balance += timed(timer_, "export kernel pj_ivm_export", [&] { launch(k_export_, shape_.T, shape_.block, args, "pj_ivm_export"); });
  unsigned given = 0;
  counts_.download(&given, sizeof given);
  return given ? out_->download() : std::string();
}

}  // namespace permjit
