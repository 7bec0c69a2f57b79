#include "runtime/ivm/ivm_idle.hpp"

#include <algorithm>

namespace permjit {

namespace {
void add_to(IvmIdleSample& into, const IvmIdleSample& s) {
  into.t = s.t;
  into.wall_s += s.wall_s;
  into.rounds += s.rounds;
  into.steals += s.steals;
  into.evaluated += s.evaluated;
  into.explorer_s += s.explorer_s;
  into.busy_s += s.busy_s;
  into.busy_start += s.busy_start;
}
}  // namespace

void IvmIdleMeter::add_round(double kernel_s, unsigned busy_start, unsigned long long busy_ns,
                             unsigned long long steals, unsigned long long evaluated) {
  const auto now_tp = clock_type::now();
  if (!started_) {  // the clock starts at the first round's start
    started_ = true;
    t0_ = now_tp - std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(kernel_s));
    last_steals_ = steals;
    last_evaluated_ = 0;
  }
  IvmIdleSample r;
  r.rounds = 1;
  r.steals = steals - last_steals_;
  r.evaluated = evaluated - last_evaluated_;
  last_steals_ = steals;
  last_evaluated_ = evaluated;
  r.explorer_s = kernel_s * static_cast<double>(T_);
  // A block starts a little before the host's event and an explorer may be counted a
  // few microseconds past the kernel's end: never more busy than the whole.
  r.busy_s = std::min(static_cast<double>(busy_ns) * 1e-9, r.explorer_s);
  r.busy_start = busy_start;
  const double now = std::chrono::duration<double>(now_tp - t0_).count();
  r.t = now;
  add_to(open_, r);
  add_to(total_, r);
  if (totals_) {
    totals_->busy_ns += static_cast<unsigned long long>(r.busy_s * 1e9);
    totals_->explorer_ns += static_cast<unsigned long long>(r.explorer_s * 1e9);
  }
  if (now - (samples_.empty() ? 0.0 : samples_.back().t) >= period_) close_sample(now);
}

void IvmIdleMeter::close_sample(double now) {
  open_.wall_s = now - (samples_.empty() ? 0.0 : samples_.back().t);
  open_.t = now;
  samples_.push_back(open_);
  open_ = IvmIdleSample{};
  if (samples_.size() < kMaxSamples) return;
  std::vector<IvmIdleSample> merged;
  for (size_t k = 0; k + 1 < samples_.size(); k += 2) {
    IvmIdleSample m = samples_[k];
    add_to(m, samples_[k + 1]);
    merged.push_back(m);
  }
  samples_ = std::move(merged);
  period_ *= 2;
}

IvmIdleSample IvmIdleMeter::total() const {
  IvmIdleSample t = total_;
  t.wall_s = total_.t;
  return t;
}

IvmIdleSummary IvmIdleMeter::summary() const {
  IvmIdleSummary s;
  s.total = total();
  s.samples = samples_;
  if (open_.rounds > 0) {
    IvmIdleSample last = open_;
    last.wall_s = open_.t - (samples_.empty() ? 0.0 : samples_.back().t);
    s.samples.push_back(last);
  }
  return s;
}

}  // namespace permjit
