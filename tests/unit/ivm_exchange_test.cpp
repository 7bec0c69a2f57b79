// The exchange between the GPUs of an `ivm` run (runtime/ivm/ivm_exchange.hpp), driven
// through the real worker loop by fake GPUs whose work is a number of units: whatever
// the number of workers, and across a checkpoint resumed on another number of them,
// every unit is searched once, the search ends, and the counts add up.
#include <atomic>
#include <chrono>
#include <catch2/catch.hpp>
#include <climits>
#include <string>
#include <thread>
#include <vector>

#include "runtime/ivm/ivm_exchange.hpp"

using namespace permjit;

namespace {

// A fake GPU: its work is `units` (the image is their number in decimal); a round
// searches up to `per_round` of them, counting each as evaluated, and finds a new
// incumbent at every multiple of 7 left. It is hungry below four rounds of work.
class FakeGpu : public IvmWorkerOps {
 public:
  FakeGpu(long long units, long long per_round) : units_(units), per_round_(per_round) {
    results_.best = results_.recorded = INT_MAX;
  }
  void set_results(const PjGpuResults& r) { results_ = r; }
  bool has_work() const override { return units_ > 0; }
  IvmRound explore() override {
    const long long n = std::min(units_, per_round_);
    units_ -= n;
    results_.evaluated += static_cast<unsigned long long>(n);
    if (n > 0 && units_ % 7 == 0 && static_cast<int>(units_) < results_.best) {
      results_.best = results_.recorded = static_cast<int>(units_);
      results_.found = 1;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(20));  // a round takes time, as a kernel does
    IvmRound r;
    r.remaining = static_cast<double>(units_);
    r.active = units_ > 0;
    r.hungry = units_ < 4 * per_round_;
    r.results = results_;
    return r;
  }
  void balance() override {}
  void set_best(int best) override { results_.best = best; }
  std::string export_half() override {
    if (units_ < 2) return {};
    const long long given = units_ / 2;
    units_ -= given;
    return std::to_string(given);
  }
  std::string image() override { return std::to_string(units_); }
  // A dry GPU's explorers take all of an image; a busy one's empty explorers half of
  // it, the rest going back to the pool.
  std::string merge(const std::string& image) override {
    const long long n = std::stoll(image);
    if (units_ > 0 && n >= 2) {
      units_ += n / 2;
      return std::to_string(n - n / 2);
    }
    units_ += n;
    return {};
  }
  PjGpuResults results() override { return results_; }

 private:
  long long units_, per_round_;
  PjGpuResults results_{};
};

struct Outcome {
  unsigned long long evaluated = 0, transfers = 0;
  int best = INT_MAX;
};

// `units` on worker 0 (or, with `pool`, in the pool), searched by `workers` fakes.
// With `checkpoint_after` > 0 the supervisor takes a checkpoint once that many units are
// searched and stops the run there, returning the snapshot in `snap`.
Outcome run_fakes(int workers, long long units, std::vector<std::string> pool = {}, PjGpuResults start = {},
                  unsigned long long checkpoint_after = 0, IvmExchange::Snapshot* snap = nullptr) {
  const int start_best = start.found ? start.best : INT_MAX;
  IvmExchange exchange(workers, true, false, start_best);
  exchange.add_to_pool(std::move(pool));
  std::vector<FakeGpu> gpus;
  for (int w = 0; w < workers; ++w) gpus.emplace_back(w == 0 ? units : 0, 3 + w);
  if (start.found || start.evaluated) {
    start.best = start.recorded = start_best;
    gpus[0].set_results(start);
  }
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w)
    threads.emplace_back([&, w] { run_ivm_worker(exchange, w, gpus[static_cast<size_t>(w)], true); });
  bool checkpointed = false;
  while (!exchange.wait_finished(0.001)) {
    if (checkpoint_after && !checkpointed && exchange.evaluated() >= checkpoint_after) {
      *snap = exchange.take_checkpoint();
      exchange.release(true);
      checkpointed = true;
    }
  }
  for (std::thread& t : threads) t.join();
  Outcome o;
  PjGpuResults merged = gpus[0].results();
  for (size_t i = 1; i < gpus.size(); ++i) merge_results(merged, gpus[i].results(), false);
  o.evaluated = merged.evaluated;
  o.best = merged.found ? merged.recorded : INT_MAX;
  o.transfers = exchange.transfers();
  return o;
}

long long units_in(const IvmExchange::Snapshot& s) {
  long long n = 0;
  for (const std::string& img : s.images) n += std::stoll(img);
  return n;
}

}  // namespace

TEST_CASE("GPUs sharing work through the exchange search every unit once and stop", "[unit][ivm][gpus]") {
  for (int workers : {1, 2, 3, 8}) {
    INFO(workers << " workers");
    Outcome o = run_fakes(workers, 5000);
    CHECK(o.evaluated == 5000);
    CHECK(o.best == 0);  // the last unit found, wherever it was searched
    if (workers > 1) CHECK(o.transfers > 0);
  }
}

TEST_CASE("An exchange with nothing to search ends at once", "[unit][ivm][gpus]") {
  Outcome o = run_fakes(4, 0);
  CHECK(o.evaluated == 0);
  CHECK(o.transfers == 0);
}

TEST_CASE("A checkpoint of several GPUs adds up, and resumes on another number of them", "[unit][ivm][gpus]") {
  const long long units = 20000;
  for (int before : {1, 2, 4})
    for (int after : {1, 3}) {
      INFO(before << " workers, then " << after);
      IvmExchange::Snapshot snap;
      run_fakes(before, units, {}, {}, 2000, &snap);
      // What was searched plus what the images hold is everything, once.
      CHECK(static_cast<long long>(snap.results.evaluated) + units_in(snap) == units);
      CHECK(snap.results.evaluated >= 2000);
      Outcome resumed = run_fakes(after, 0, snap.images, snap.results);
      CHECK(resumed.evaluated == static_cast<unsigned long long>(units));
      CHECK(resumed.best == 0);
    }
}
