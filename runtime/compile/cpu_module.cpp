#include "runtime/compile/cpu_module.hpp"

#include <span>
#include <stdexcept>

#include "dsl/diagnostics.hpp"
#include "dsl/spec.hpp"
#include "templates/host_threads.hpp"

namespace permjit {

// The modules' result blocks hold a permutation of every size the language takes.
static_assert(PJ_MAX_SIZE == kMaxSize, "templates/*_abi.h's PJ_MAX_SIZE is dsl/spec.hpp's kMaxSize");

CpuModule::CpuModule(const HostModule& compiled)
    : lib_(compiled, "", "pj_cpu_abi", PJ_CPU_ABI),
      search_(lib_.entry<PjCpuSearchFn>("pj_cpu_search")),
      frontier_(lib_.entry<PjCpuFrontierFn>("pj_cpu_frontier")),
      frontier_free_(lib_.entry<PjCpuFrontierFreeFn>("pj_cpu_frontier_free")),
      ranges_open_(lib_.entry<PjCpuRangesOpenFn>("pj_cpu_ranges_open")),
      ranges_search_(lib_.entry<PjCpuRangesSearchFn>("pj_cpu_ranges_search")),
      ranges_close_(lib_.entry<PjCpuRangesCloseFn>("pj_cpu_ranges_close")),
      ranges_open_work_(lib_.entry<PjCpuRangesOpenWorkFn>("pj_cpu_ranges_open_work")),
      improve_(lib_.entry<PjCpuImproveFn>("pj_cpu_improve")) {}

namespace {

// What the module could not do for want of the host's resources, as errors at the
// options that asked for them (templates/host_threads.hpp). `threads` and `split_depth`
// as the module received them.
void check_resources(int rc, int threads, int split_depth) {
  if (rc == pj::kNoThreadsCode)
    command_line_error("--threads " + std::to_string(threads), 11,
                       "the host cannot start " + std::to_string(threads) + " threads (its limit on threads or memory)",
                       "give fewer with --threads");
  if (rc == pj::kNoMemoryCode) {
    if (split_depth > 0)
      command_line_error("--split-depth " + std::to_string(split_depth), 15,
                         "the frontier " + std::to_string(split_depth) +
                             " levels below the root does not fit in the host's memory",
                         "give a smaller --split-depth, or leave it out to let the search choose");
    throw std::runtime_error("the host ran out of memory in the search");
  }
}

PjCpuArgs args_of(const CpuRunOptions& opts) {
  PjCpuArgs args{opts.threads, opts.split_depth, opts.ub.has_value(), opts.ub.value_or(0), opts.time_limit_s};
  args.stop_request = opts.stop_request;
  return args;
}
}  // namespace

PjCpuResult CpuModule::search(const CpuRunOptions& opts) const {
  PjCpuArgs args = args_of(opts);
  args.solution_limit = opts.solution_limit;
  args.fixed_incumbent = opts.fixed_incumbent ? 1 : 0;
  if (opts.list) {
    args.on_solution = [](void* ctx, const int* perm, int size, long long value) {
      return static_cast<SolutionList*>(ctx)->take(std::span<const int>(perm, size), value) ? 0 : 1;
    };
    args.solution_ctx = opts.list;
  }
  PjCpuResult r{};
  int rc = search_(&args, &r);
  check_resources(rc, args.threads, args.split_depth);
  if (rc != 0) throw std::runtime_error("the CPU search failed (code " + std::to_string(rc) + ")");
  return r;
}

PjFrontier CpuModule::frontier(std::optional<long long> ub, int depth, unsigned long long min_nodes, bool with_prefix,
                               int threads) const {
  PjCpuArgs args{threads, 0, ub.has_value(), ub.value_or(0), 0};
  PjFrontier f{};
  if (int rc = frontier_(&args, depth, min_nodes, with_prefix ? 1 : 0, &f); rc != 0) {
    frontier_free_(&f);
    check_resources(rc, threads, 0);
    // Skeletons that start from a frontier of prefixes place values from the left only:
    // prepare_solve refused a two-ended spec for them.
    PJ_INTERNAL_ASSERT(rc != 2, "a frontier of prefixes needs values placed from the left (branch.ends = 1)");
    throw std::runtime_error("out of host memory building the frontier");
  }
  return f;
}

void CpuModule::free_frontier(PjFrontier& f) const { frontier_free_(&f); }

std::optional<CpuModule::IndexFault> CpuModule::index_fault() const {
  const auto* site = static_cast<const int*>(lib_.optional_symbol("pj_index_fault_site"));
  const auto* value = static_cast<const long long*>(lib_.optional_symbol("pj_index_fault_value"));
  if (!site || !value || *site < 0) return std::nullopt;
  return IndexFault{*site, *value};
}

namespace {
// PjImproveArgs' stop and on_better from ImproveOptions'.
void set_beside(PjImproveArgs& args, const ImproveOptions& opts) {
  args.stop = opts.stop;
  if (!opts.on_better) return;
  args.ctx = const_cast<void*>(static_cast<const void*>(&opts.on_better));
  args.on_better = [](void* ctx, const int* perm, int size, long long value) {
    (*static_cast<const std::function<void(std::span<const int>, long long)>*>(ctx))(
        std::span<const int>(perm, static_cast<size_t>(size)), value);
  };
}
}  // namespace

PjImproveResult CpuModule::improve(std::span<const int> perm, long long value, const ImproveOptions& opts) const {
  PjImproveArgs args{};
  args.threads = opts.threads;
  args.seconds = opts.seconds;
  args.seed = opts.seed;
  set_beside(args, opts);
  PJ_INTERNAL_ASSERT(perm.size() <= PJ_MAX_SIZE, "a permutation of at most PJ_MAX_SIZE values");
  args.size = static_cast<int>(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) args.perm[i] = perm[i];
  args.value = value;
  PjImproveResult r{};
  int rc = improve_(&args, &r);
  check_resources(rc, args.threads, 0);
  // The callers improve a leaf the same module found, of a spec that optimises.
  PJ_INTERNAL_ASSERT(rc == 0, "local search refused its start (code " + std::to_string(rc) + ")");
  return r;
}

std::optional<PjImproveResult> CpuModule::improve_greedy(const ImproveOptions& opts) const {
  PjImproveArgs args{};
  args.threads = opts.threads;
  args.seconds = opts.seconds;
  args.seed = opts.seed;
  args.no_start = 1;
  set_beside(args, opts);
  PjImproveResult r{};
  int rc = improve_(&args, &r);
  check_resources(rc, args.threads, 0);
  if (rc == 4) return std::nullopt;  // the dive met a dead end: no leaf to start from
  PJ_INTERNAL_ASSERT(rc == 0, "greedy local search failed (code " + std::to_string(rc) + ")");
  return r;
}

CpuRanges::CpuRanges(const CpuModule& module, const CpuRunOptions& opts, int depth, unsigned long long min_nodes)
    : module_(module) {
  PjCpuArgs args = args_of(opts);
  const int rc = module_.ranges_open_(&args, depth, min_nodes, &handle_, &frontier_);
  check_resources(rc, args.threads, args.split_depth);
  if (rc == pj::kStoppedCode) throw FrontierStopped();
  if (rc != 0)
    throw std::runtime_error("out of host memory building the frontier");
}

CpuRanges::~CpuRanges() { module_.ranges_close_(handle_); }

PjCpuResult CpuRanges::search(unsigned long long begin, unsigned long long end, const CpuRunOptions& opts) const {
  PjCpuArgs args = args_of(opts);
  PjCpuResult r{};
  int rc = module_.ranges_search_(handle_, &args, begin, end, &r);
  check_resources(rc, args.threads, args.split_depth);
  PJ_INTERNAL_ASSERT(rc != 2, "a range outside the frontier");
  if (rc != 0) throw std::runtime_error("the CPU search failed (code " + std::to_string(rc) + ")");
  return r;
}

PjCpuResult CpuRanges::open_work(unsigned long long begin, unsigned long long end,
                                  std::optional<long long> incumbent) const {
  PjCpuResult r{};
  const int rc = module_.ranges_open_work_(handle_, incumbent ? 1 : 0, incumbent.value_or(0), begin, end, &r);
  PJ_INTERNAL_ASSERT(rc != 2, "a range outside the frontier");
  if (rc != 0) throw std::runtime_error("the open work of a range failed (code " + std::to_string(rc) + ")");
  return r;
}

}  // namespace permjit
