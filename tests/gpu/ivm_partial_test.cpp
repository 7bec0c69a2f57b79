// The ivm skeleton stopped by --time-limit (docs/reliability.md, "Partial answers"): the
// proven bound over the explorers' open work (pj_ivm_open_bound, runtime/ivm/ivm_open_bound.hpp)
// and its refinement (pj_ivm_open_refine) are at most the optimum from brute force,
// which shares no code with permjit, and at least the root's bound; on one GPU and on
// two workers; the checkpoint resumed for as long again starts from the stop's bound. Few explorers slow the search
// down, so that the short limits stop it inside the tree. The open-work kernels are a
// unit of their own, compiled when a run first needs it: stops before and after it is
// compiled, ahead of the stop or at it, bound the open work alike.
#include <csignal>
#include <cstdlib>
#include <filesystem>

#include "../e2e/flowshop_support.hpp"
#include "gpu_support.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {

struct Tally {
  int stopped = 0, from_open = 0, refined = 0;
};

void check_stopped_runs(const Run& run, long long optimum, Tally& t) {
  for (const char* gpus : {"", "0,0"})
    for (unsigned long long T : {32ull, 1024ull})
      for (double limit : {0.05, 0.2}) {
        INFO(run.spec << " " << run.inst << ", --gpus '" << gpus << "', " << T << " explorers, --time-limit " << limit);
        SolveOptions o = options_for(run, "ivm");
        o.progress = SolveOptions::Progress::off;
        o.gpus = gpus;
        o.explorers = T;
        o.time_limit = limit;
        const std::string ckpt = temp_file("ivm_partial.ckpt", "");
        std::remove(ckpt.c_str());
        o.checkpoint = ckpt;
        SolveResult r = solve(o);
        if (!r.stopped) {
          CHECK(r.objective == optimum);
          CHECK_FALSE(r.proven_bound);
          continue;
        }
        ++t.stopped;
        check_proven_bound(r, optimum);
        REQUIRE(r.ivm);
        if (r.ivm->refine_proved) ++t.refined;
        if (r.bound_from.find("open subtrees") != std::string::npos && *r.proven_bound > *r.root_bound) ++t.from_open;
        CHECK_THAT(format_json(r), Catch::Contains("\"proven_bound\":" + std::to_string(*r.proven_bound)));
        CHECK_THAT(format_human(r), Catch::Contains("bound       " + std::to_string(*r.proven_bound)));
        // Resumed for as long again: the checkpoint carries the stop's bound (its floor);
        // stopped again, the bound starts from it and stays at most the optimum.
        SolveOptions again = options_for(run, "ivm");
        again.progress = SolveOptions::Progress::off;
        again.gpus = gpus;
        again.resume = ckpt;
        again.time_limit = limit;
        SolveResult q = solve(again);
        REQUIRE(q.ivm);
        CHECK(q.ivm->resumed_floor == r.proven_bound);
        if (!q.stopped) {
          CHECK(q.objective == optimum);
          continue;
        }
        check_proven_bound(q, optimum);
        CHECK(*q.proven_bound >= (q.found ? std::min(*r.proven_bound, q.objective) : *r.proven_bound));
      }
}

}  // namespace

TEST_CASE("ivm stopped by its time limit proves a bound between the root's and the brute-force optimum",
          "[gpu][ivm][partial]") {
  Tally t;
  // The refinement of the bound for twice the search's seconds rather than 5%: the
  // short limits here leave it milliseconds otherwise.
  setenv("PERMJIT_IVM_REFINE", "2", 1);
  // Arcs of 50 to 60: the partial-cost bound (lb=0) prunes little, a large tree.
  const Matrix d = random_matrix(11, 50, 60, 11);
  const std::string atsp = temp_file("ivm_partial.atsp", tsplib_text(d));
  check_stopped_runs({problem("atsp.toml"), atsp, {"lb=0"}, {}}, brute_force_min(11, true, [&](const std::vector<int>& p) {
                       return tour_cost(d, p);
                     }), t);
  // Two ends (flowshop.toml's default).
  const FlowshopInstance f = random_flowshop(10, 6, 7u);
  const std::string fs = temp_file("ivm_partial_flowshop.txt", taillard_text(f));
  check_stopped_runs({problem("flowshop.toml"), fs, {}, {}},
                     brute_force_min(10, false, [&](const std::vector<int>& p) { return makespan(f, p); }), t);
  unsetenv("PERMJIT_IVM_REFINE");
  CHECK(t.stopped > 0);
  CHECK(t.from_open > 0);
  CHECK(t.refined > 0);  // some refinement passes reached their target
}

namespace {

// A stopped run's open work bounded: a proven bound between the root's and the best found.
void check_open_bound(const SolveResult& r) {
  REQUIRE(r.stopped);
  check_proven_bound(r);
  CHECK(r.open_subtrees > 0);
}

}  // namespace

// The open-work unit (runtime/compile/deferred_module.hpp) in an empty module cache: not
// compiled by a run that ends without a stop; compiled at the stop of a run stopped by a
// signal alone, which waits for it; compiled ahead, beside the search (from a second
// into it, or a quarter of the limit), by a run with --time-limit, whose stop waits only
// for what is left of it; read from the cache by the next. One explorer searches a 14-city ATSP under its partial cost: tens of seconds.
TEST_CASE("ivm compiles its open-work unit when a run first needs it, before or at the stop",
          "[gpu][ivm][partial][open_unit]") {
  const Matrix d = random_matrix(14, 50, 60, 14);
  const Run atsp{problem("atsp.toml"), temp_file("ivm_open_unit.atsp", tsplib_text(d)), {"lb=0"}, {}};
  const std::string cache = std::filesystem::path(temp_file("ivm_open_unit.keep", "")).parent_path() / "ivm_open_unit_cache";
  auto options = [&](const std::string& sub) {
    SolveOptions o = options_for(atsp, "ivm");
    o.cache_dir = cache + "/" + sub;
    o.progress = SolveOptions::Progress::off;
    o.explorers = 1;
    return o;
  };
  // An empty cache with the search's unit compiled into it: a --ub below every tour ends
  // the search at once, and nothing asks for the open work.
  auto fresh_cache = [&](const std::string& sub) {
    std::filesystem::remove_all(cache + "/" + sub);
    SolveOptions warm = options(sub);
    warm.ub = 1;
    warm.explorers = 0;
    SolveResult first = solve(warm);
    REQUIRE(first.ivm);
    CHECK_FALSE(first.stopped);
    CHECK(first.ivm->open_unit == "not needed");
    CHECK(first.ivm->t_open_compile == 0);
  };

  SECTION("a signal without --time-limit, --checkpoint or --progress: compiled at the stop") {
    fresh_cache("at_need");
    // A second into the run: the search's module is read from the cache and loaded by then.
    const std::optional<SolveResult> r = interrupted_after(1000, [&] { return solve(options("at_need")); });
    REQUIRE(r);
    check_open_bound(*r);
    REQUIRE(r->ivm);
    CHECK(r->ivm->open_unit == "at need");
    CHECK(r->ivm->t_open_compile > 0);
    CHECK(r->ivm->t_open_wait >= r->ivm->t_open_compile * 0.5);  // the stop waited for NVRTC
    CHECK_THAT(format_json(*r), Catch::Contains("\"open_unit\":{\"how\":\"at need\""));
    // The next stop reads it from the cache.
    SolveOptions o = options("at_need");
    o.time_limit = 0.3;
    SolveResult again = solve(o);
    check_open_bound(again);
    CHECK(again.ivm->open_unit == "cached");
    CHECK(again.ivm->t_open_compile == 0);
    CHECK(again.ivm->t_open_wait < 0.05);
  }

  SECTION("--time-limit: compiled ahead, the stop waits for what is left of it") {
    fresh_cache("ahead");
    SolveOptions o = options("ahead");
    o.time_limit = 0.05;  // long before NVRTC is done
    SolveResult before = solve(o);
    check_open_bound(before);
    CHECK(before.ivm->open_unit == "ahead");
    CHECK(before.ivm->t_open_compile > 0);
    CHECK(before.ivm->t_open_wait > 0);
    // Cached now: a stop after the unit is compiled does not wait.
    o.time_limit = 0.3;
    SolveResult after = solve(o);
    check_open_bound(after);
    CHECK(after.ivm->open_unit == "cached");
    CHECK(after.ivm->t_open_wait < 0.05);
    // Compiled ahead and done before the stop: the compile starts 1 s into the search
    // (kOpenUnitDelay), and a 6 s limit outlasts NVRTC after it.
    fresh_cache("ahead_done");
    SolveOptions late = options("ahead_done");
    late.time_limit = 6;
    SolveResult done = solve(late);
    check_open_bound(done);
    CHECK(done.ivm->open_unit == "ahead");
    CHECK(done.ivm->t_open_compile > 0);
    CHECK(done.ivm->t_open_wait < 0.05);
  }
}

// A warm start's incumbent is on every progress sample from the first (it was shown only
// once the search had improved on it), and the samples' incumbents never rise above it
// nor fall below the result's.
TEST_CASE("ivm's progress samples carry the warm start's incumbent from the first", "[gpu][ivm][partial][progress]") {
  // A 50x20 instance: no proof within the limit, so samples come every second.
  SolveOptions o = options_for({problem("flowshop.toml"), instance("flowshop/ta051.txt"), {}, {}}, "ivm");
  o.warm_start = 0.5;  // options_for turns it off; here it gives the start's incumbent
  std::vector<ProgressSample> samples;
  o.progress = SolveOptions::Progress::on;
  o.on_progress = [&](const ProgressSample& s) { samples.push_back(s); };
  o.time_limit = 2.5;
  unsetenv("PERMJIT_IVM_REFINE");  // the default refinement (another case here sets its own)
  SolveResult r = solve(o);
  REQUIRE(r.warm_start);
  REQUIRE(r.warm_start->objective);
  REQUIRE(r.found);
  REQUIRE_FALSE(samples.empty());
  for (const ProgressSample& s : samples) {
    INFO("the sample at " << s.elapsed << " s");
    REQUIRE(s.incumbent);
    CHECK(*s.incumbent <= *r.warm_start->objective);
    CHECK(*s.incumbent >= r.objective);
  }
}

// The local search beside the search (runtime/core/warm_start.hpp): on ivm (its exchange
// takes the outside value after each round) and on offload (its host threads take the
// leaf before a batch), the answer is never worse than the best leaf the local search
// offered, it is a real leaf (its own cost), and the proven bound stays below it.
TEST_CASE("the local search beside ivm and offload: its leaves lower the incumbent, the answer is a leaf",
          "[gpu][warm_start][beside]") {
  const std::string ta051 = instance("flowshop/ta051.txt");
  const Matrix d = random_matrix(60, 1, 1000, 17);
  const std::string atsp = temp_file("gpu_beside60.atsp", tsplib_text(d));
  struct Case {
    Run run;
    const char* skeleton;
    std::function<long long(const std::vector<int>&)> cost;
  };
  const FlowshopInstance f = read_taillard(ta051);
  for (const Case& c : {Case{{problem("flowshop.toml"), ta051, {}, {}}, "ivm",
                             [&](const std::vector<int>& p) { return makespan(f, p); }},
                        Case{{problem("atsp.toml"), atsp, {}, {}}, "offload",
                             [&](const std::vector<int>& p) { return tour_cost(d, p); }}}) {
    INFO(c.skeleton);
    SolveOptions o = options_for(c.run, c.skeleton);
    o.warm_start = 0.3;  // options_for turns it off
    o.time_limit = 4;
    const SolveResult r = solve(o);
    REQUIRE(r.warm_start);
    REQUIRE(r.warm_start->objective);
    REQUIRE(r.warm_start->beside);
    const SolveResult::BesideReport& b = *r.warm_start->beside;
    CHECK(b.threads >= 1);
    INFO("beside: " << b.improvements << " better leaves, " << b.iterations << " kicks");
    REQUIRE(r.found);
    CHECK(r.objective <= *r.warm_start->objective);
    if (b.best) CHECK(r.objective <= *b.best);
    CHECK(c.cost(r.permutation) == r.objective);
    REQUIRE(r.proven_bound);
    CHECK(*r.proven_bound <= r.objective);
  }
}
