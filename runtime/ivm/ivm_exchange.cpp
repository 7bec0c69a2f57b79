#include "runtime/ivm/ivm_exchange.hpp"
#include "templates/host_deadline.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <utility>

namespace permjit {

namespace {
// A dry worker looks again this often even without news: a signal or a supervisor's
// request reaches it through the flags, not only through a notification.
constexpr std::chrono::milliseconds kLook{50};
}  // namespace

void merge_results(PjGpuResults& into, const PjGpuResults& from, bool maximise) {
  into.expanded += from.expanded;
  into.evaluated += from.evaluated;
  into.solutions += from.solutions;
  auto better = [maximise](int a, int b) { return maximise ? a > b : a < b; };
  if (better(from.best, into.best)) into.best = from.best;
  if (from.found && (!into.found || better(from.recorded, into.recorded))) {
    into.found = 1;
    into.recorded = from.recorded;
    std::memcpy(into.perm, from.perm, sizeof into.perm);
  }
}

void run_ivm_worker(IvmPeers& peers, int worker, IvmWorkerOps& ops, bool optimise) {
  bool dry = !ops.has_work();
  auto take = [&](const std::string& image) {
    std::string left = ops.merge(image);
    if (!left.empty()) peers.put_back(worker, std::move(left));
  };
  for (;;) {
    if (dry) {
      std::optional<std::string> image = peers.want_work(worker, ops.results());
      if (!image) return;  // the search is over
      take(*image);
      dry = false;
    }
    const IvmRound round = ops.explore();
    if (round.answered) return;
    IvmRoundReply reply =
        peers.after_round(worker, {round.remaining, round.results.evaluated, round.results.best, round.hungry});
    if (optimise && reply.best != round.results.best) ops.set_best(reply.best);  // it prunes here too
    if (reply.stop) return;
    // Give before depositing: the given half is in the pool when the checkpoint is taken.
    if (reply.give) peers.give(worker, ops.export_half());
    const bool fed = !reply.image.empty();
    if (fed) take(reply.image);  // before running dry: no wait for the transfer
    if (reply.checkpoint && peers.deposit(worker, round.active || fed ? ops.image() : std::string(), ops.results()))
      return;
    if (!round.active && !fed) {
      dry = true;
      continue;
    }
    ops.balance();
  }
}

IvmExchange::IvmExchange(int workers, bool optimise, bool maximise, int start_best)
    : n_(workers), optimise_(optimise), maximise_(maximise), best_(start_best),
      remaining_(static_cast<size_t>(workers), 0.0), evaluated_(static_cast<size_t>(workers), 0),
      dry_(static_cast<size_t>(workers), 0), hungry_(static_cast<size_t>(workers), 0), asked_(static_cast<size_t>(workers), 0),
      unsplittable_(static_cast<size_t>(workers), 0), asked_by_(static_cast<size_t>(workers), -1),
      deposited_(static_cast<size_t>(workers), 0), deposits_(static_cast<size_t>(workers)),
      results_(static_cast<size_t>(workers), PjGpuResults{}), interrupt_(static_cast<size_t>(workers)) {
  for (PjGpuResults& r : results_) r.best = r.recorded = start_best;
}

void IvmExchange::add_to_pool(std::vector<std::string> images) {
  std::lock_guard<std::mutex> lock(m_);
  for (std::string& s : images) pool_.push_back(std::move(s));
  cv_.notify_all();
}

void IvmExchange::take_best(int b) {
  if (optimise_ && better(b, best_)) best_ = b;
}

// A worker that asked `v` asks again; `v` owes nothing.
static void forget_asks(int v, std::vector<char>& asked, std::vector<int>& asked_by) {
  asked[static_cast<size_t>(v)] = 0;
  for (int& a : asked_by)
    if (a == v) a = -1;
}

IvmRoundReply IvmExchange::after_round(int w, const IvmRoundReport& rep) {
  std::lock_guard<std::mutex> lock(m_);
  const size_t i = static_cast<size_t>(w);
  remaining_[i] = rep.remaining;
  evaluated_[i] = rep.evaluated;
  hungry_[i] = rep.hungry;
  unsplittable_[i] = 0;
  take_best(rep.best);
  if (outside_)
    if (const std::optional<int> b = outside_(best_)) take_best(*b);
  IvmRoundReply reply;
  reply.best = best_;
  reply.stop = stop_ || aborted_;
  reply.checkpoint = checkpoint_ && !deposited_[i];
  // No work moves while a checkpoint is taken: what is deposited must add up.
  reply.give = asked_[i] && !checkpoint_ && rep.remaining > 0;
  if (asked_[i] && rep.remaining == 0) forget_asks(w, asked_, asked_by_);  // it has nothing
  if (rep.hungry && !checkpoint_ && !reply.stop) {
    if (!pool_.empty()) {  // work waits: take it now, before running dry
      reply.image = std::move(pool_.back());
      pool_.pop_back();
      asked_by_[i] = -1;
    } else {
      ask_for(w);  // some will be in the pool by a later round
    }
  }
  cv_.notify_all();  // its new length may make it a victim
  return reply;
}

void IvmExchange::give(int w, std::string image) {
  std::lock_guard<std::mutex> lock(m_);
  forget_asks(w, asked_, asked_by_);
  if (image.empty()) {
    unsplittable_[static_cast<size_t>(w)] = 1;  // until its next report
  } else {
    pool_.push_back(std::move(image));
    ++transfers_;
  }
  cv_.notify_all();
}

void IvmExchange::put_back(int, std::string image) {
  std::lock_guard<std::mutex> lock(m_);
  pool_.push_back(std::move(image));
  cv_.notify_all();
}

bool IvmExchange::deposit(int w, std::string image, const PjGpuResults& results) {
  std::unique_lock<std::mutex> lock(m_);
  const size_t i = static_cast<size_t>(w);
  results_[i] = results;
  deposits_[i] = std::move(image);
  deposited_[i] = 1;
  cv_.notify_all();
  const unsigned long long epoch = epoch_;
  cv_.wait(lock, [&] { return epoch_ != epoch || aborted_; });
  return stop_ || aborted_;
}

int IvmExchange::pick_victim(int thief) const {
  // A hungry thief robs no hungry GPU (two of them would pass work to and fro); a dry
  // one may.
  const bool hungry_thief = !dry_[static_cast<size_t>(thief)];
  int v = -1;
  for (int j = 0; j < n_; ++j) {
    const size_t i = static_cast<size_t>(j);
    if (j == thief || dry_[i] || (hungry_thief && hungry_[i]) || asked_[i] || unsplittable_[i] || !(remaining_[i] >= 2))
      continue;
    if (v < 0 || remaining_[i] > remaining_[static_cast<size_t>(v)]) v = j;
  }
  return v;
}

void IvmExchange::ask_for(int thief) {
  const size_t i = static_cast<size_t>(thief);
  if (asked_by_[i] >= 0) return;
  const int v = pick_victim(thief);
  if (v < 0) return;
  asked_[static_cast<size_t>(v)] = 1;
  asked_by_[i] = v;
  if (interrupt_[static_cast<size_t>(v)]) interrupt_[static_cast<size_t>(v)]();  // give now, not at the slice's end
}

std::optional<std::string> IvmExchange::want_work(int w, const PjGpuResults& results) {
  std::unique_lock<std::mutex> lock(m_);
  const size_t i = static_cast<size_t>(w);
  results_[i] = results;
  take_best(results.best);
  dry_[i] = 1;
  remaining_[i] = 0;
  if (asked_[i]) forget_asks(w, asked_, asked_by_);
  cv_.notify_all();
  for (;;) {
    if (stop_ || aborted_ || finished_) return std::nullopt;
    if (checkpoint_) {
      // Deposited empty (its counts are in `results`); it takes nothing until released.
      if (!deposited_[i]) {
        deposited_[i] = 1;
        deposits_[i].clear();
        cv_.notify_all();
      }
    } else if (!pool_.empty()) {
      std::string image = std::move(pool_.back());
      pool_.pop_back();
      dry_[i] = 0;
      asked_by_[i] = -1;  // whoever it asked still gives to the pool
      return image;
    } else if (std::all_of(dry_.begin(), dry_.end(), [](char d) { return d != 0; })) {
      finished_ = true;  // nobody has work and none waits: the search is over
      cv_.notify_all();
      return std::nullopt;
    } else {
      ask_for(w);
    }
    cv_.wait_for(lock, kLook);
  }
}

void IvmExchange::when_asked(int worker, std::function<void()> interrupt) {
  std::lock_guard<std::mutex> lock(m_);
  interrupt_[static_cast<size_t>(worker)] = std::move(interrupt);
}

bool IvmExchange::all_deposited() const {
  return std::all_of(deposited_.begin(), deposited_.end(), [](char d) { return d != 0; });
}

IvmExchange::Snapshot IvmExchange::take_checkpoint() {
  std::unique_lock<std::mutex> lock(m_);
  Snapshot snap;
  if (!finished_ && !aborted_) {
    checkpoint_ = true;
    std::fill(deposited_.begin(), deposited_.end(), 0);
    cv_.notify_all();
    cv_.wait(lock, [&] { return all_deposited() || aborted_ || finished_; });
    for (std::string& d : deposits_) {
      if (!d.empty()) snap.images.push_back(std::move(d));
      d.clear();
    }
  }
  for (const std::string& p : pool_) snap.images.push_back(p);
  snap.results = results_[0];
  for (size_t i = 1; i < results_.size(); ++i) merge_results(snap.results, results_[i], maximise_);
  if (optimise_ && better(best_, snap.results.best)) snap.results.best = best_;
  return snap;
}

void IvmExchange::release(bool stop) {
  std::lock_guard<std::mutex> lock(m_);
  checkpoint_ = false;
  if (stop) stop_ = true;
  ++epoch_;
  cv_.notify_all();
}

void IvmExchange::abort() {
  std::lock_guard<std::mutex> lock(m_);
  aborted_ = true;
  cv_.notify_all();
}

bool IvmExchange::wait_finished(double seconds) {
  std::unique_lock<std::mutex> lock(m_);
  cv_.wait_until(lock, pj::deadline_after<std::chrono::steady_clock>(std::chrono::steady_clock::now(), seconds),
                 [&] { return finished_ || aborted_ || stop_; });
  return finished_ || stop_;
}

bool IvmExchange::aborted() const {
  std::lock_guard<std::mutex> lock(m_);
  return aborted_;
}

double IvmExchange::remaining_leaves() const {
  std::lock_guard<std::mutex> lock(m_);
  double s = 0;
  for (double r : remaining_) s += r;
  return s;
}

unsigned long long IvmExchange::evaluated() const {
  std::lock_guard<std::mutex> lock(m_);
  unsigned long long s = 0;
  for (unsigned long long e : evaluated_) s += e;
  return s;
}

int IvmExchange::best() const {
  std::lock_guard<std::mutex> lock(m_);
  return best_;
}

unsigned long long IvmExchange::transfers() const {
  std::lock_guard<std::mutex> lock(m_);
  return transfers_;
}

}  // namespace permjit
