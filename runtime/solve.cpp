#include "runtime/solve.hpp"

#include <chrono>

#include <fmt/core.h>

#include "dsl/diagnostics.hpp"
#include "generator/generate.hpp"
#include "runtime/cuda_driver.hpp"
#include "runtime/skeletons.hpp"

namespace permjit {

namespace {

// Picks the skeleton from --backend and --skeleton; says why in `reason`.
const Skeleton& choose_skeleton(const SolveOptions& opts, std::string& reason) {
  Diagnostics d;
  SourceRef cl = make_source("<command line>", "--backend " + opts.backend + " --skeleton " + opts.skeleton);
  if (opts.backend != "auto" && opts.backend != "cpu" && opts.backend != "gpu") {
    d.error(Loc{cl, 1, 11}, "unknown backend '" + opts.backend + "'", "backend is auto, cpu or gpu");
    throw UserErrors(std::move(d));
  }
  if (!opts.skeleton.empty()) {
    const Skeleton* s = find_skeleton(opts.skeleton);
    if (!s) {
      std::string names;
      for (const auto& k : skeletons()) names += (names.empty() ? "" : ", ") + std::string(k.name);
      d.error(Loc{cl, 1, static_cast<int>(opts.backend.size()) + 23},
              "skeleton '" + opts.skeleton + "' is not available in this build", "available: " + names);
      throw UserErrors(std::move(d));
    }
    if (opts.backend != "auto" && s->backend != opts.backend) {
      d.error(Loc{cl, 1, 11}, "skeleton '" + opts.skeleton + "' runs on the " + std::string(s->backend) +
                                  " backend, not " + opts.backend);
      throw UserErrors(std::move(d));
    }
    reason = "chosen with --skeleton";
    return *s;
  }
  if (opts.backend == "cpu") {
    reason = "chosen with --backend";
    return *find_skeleton("cpu");
  }
  std::string why;
  cuda::Device dev;
  bool gpu = cuda::first_device(dev, &why);
  if (opts.backend == "gpu" && !gpu) {
    d.error(Loc{cl, 1, 11}, "no GPU to run on: " + why, "use --backend cpu (or auto)");
    throw UserErrors(std::move(d));
  }
  if (!gpu) {
    reason = "auto: " + why;
    return *find_skeleton("cpu");
  }
  reason = opts.backend == "gpu" ? "chosen with --backend" : "auto: found " + dev.name;
  return *find_skeleton("ivm");  // the fastest GPU skeleton measured (docs/performance.md)
}

// Options of one skeleton given to another are a mistake worth saying.
void check_skeleton_options(const SolveOptions& opts, const Skeleton& sk) {
  if (opts.time_limit != 0 && (opts.time_limit < 0 || (sk.name != "cpu" && sk.name != "dfs"))) {
    Diagnostics d;
    d.error(Loc{make_source("<command line>", "--time-limit " + fmt::format("{}", opts.time_limit)), 1, 14},
            opts.time_limit < 0 ? "--time-limit takes a number of seconds above 0"
                                : "--time-limit applies to the cpu and dfs skeletons; this run uses '" +
                                      std::string(sk.name) + "'",
            "they stop there and report the best found and the nodes searched, marked partial");
    throw UserErrors(std::move(d));
  }
  if (!opts.offload.empty() && (sk.name != "offload" || (opts.offload != "bound" && opts.offload != "branch"))) {
    Diagnostics d;
    d.error(Loc{make_source("<command line>", "--offload " + opts.offload), 1, 11},
            sk.name != "offload" ? "--offload applies to the offload skeleton, not " + std::string(sk.name)
                                 : "unknown offload mode '" + opts.offload + "'",
            sk.name != "offload" ? "add --skeleton offload" : "--offload is bound or branch");
    throw UserErrors(std::move(d));
  }
  const bool ida = sk.name == "ida" || sk.name == "ida-thread";
  const std::string& bal = opts.ida_balance;
  std::string bal_error, bal_hint = "add --skeleton ida";
  if (!bal.empty() && !ida)
    bal_error = "--balance applies to the ida and ida-thread skeletons, not " + std::string(sk.name);
  else if (!bal.empty() && bal != "static" && bal != "dynamic" && bal != "donate") {
    bal_error = "unknown balancing '" + bal + "'";
    bal_hint = "--balance is static, dynamic or donate";
  } else if (bal == "donate" && sk.name != "ida")
    bal_error = "--balance donate applies to the ida skeleton: ida-thread's threads have no stack to give from";
  if (!bal_error.empty()) {
    Diagnostics d;
    d.error(Loc{make_source("<command line>", "--balance " + bal), 1, 11}, bal_error, bal_hint);
    throw UserErrors(std::move(d));
  }
  if (opts.donate_after && (sk.name != "ida" || (!bal.empty() && bal != "donate"))) {  // donate: ida's default
    Diagnostics d;
    d.error(Loc{make_source("<command line>", "--donate-after " + std::to_string(*opts.donate_after)), 1, 1},
            "--donate-after applies to the ida skeleton with --balance donate (its default)",
            "add --skeleton ida, without another --balance");
    throw UserErrors(std::move(d));
  }
  if (opts.ida_stack != 0 && sk.name != "ida") {
    Diagnostics d;
    d.error(Loc{make_source("<command line>", "--ida-stack " + std::to_string(opts.ida_stack)), 1, 1},
            "--ida-stack applies to the ida skeleton; this run uses '" + std::string(sk.name) + "'",
            "add --skeleton ida");
    throw UserErrors(std::move(d));
  }
  if (opts.ida_stack != 0 && opts.ida_stack < kMinIdaStack) {  // the device's limit is checked when it is open
    Diagnostics d;
    d.error(Loc{make_source("<command line>", "--ida-stack " + std::to_string(opts.ida_stack)), 1, 13},
            "a stack of " + std::to_string(opts.ida_stack) + " entries is too small: at least " +
                std::to_string(kMinIdaStack));
    throw UserErrors(std::move(d));
  }
  if (sk.name == "ivm") {
    if (opts.ivm_rows != "auto" && opts.ivm_rows != "shared" && opts.ivm_rows != "local") {
      Diagnostics d;
      d.error(Loc{make_source("<command line>", "--ivm-rows " + opts.ivm_rows), 1, 12},
              "unknown placement '" + opts.ivm_rows + "'", "--ivm-rows is auto, shared or local");
      throw UserErrors(std::move(d));
    }
    if (opts.checkpoint_every <= 0) {
      Diagnostics d;
      d.error(Loc{make_source("<command line>", "--checkpoint-every " + std::to_string(opts.checkpoint_every)), 1, 20},
              "--checkpoint-every must be a positive number of seconds");
      throw UserErrors(std::move(d));
    }
    return;
  }
  const std::pair<const char*, bool> ivm_only[] = {
      {"--explorers", opts.explorers != 0},     {"--trigger", opts.trigger != 0},
      {"--checkpoint", !opts.checkpoint.empty()}, {"--resume", !opts.resume.empty()},
      {"--ivm-rows", opts.ivm_rows != "auto"}};
  for (const auto& [name, given] : ivm_only) {
    if (!given) continue;
    Diagnostics d;
    d.error(Loc{make_source("<command line>", name), 1, 1},
            std::string(name) + " applies to the ivm skeleton; this run uses '" + std::string(sk.name) + "'",
            "add --skeleton ivm");
    throw UserErrors(std::move(d));
  }
}

// The skeleton for the spec's shape: the automatic GPU choice is ida for a path problem;
// a skeleton named on the command line for the other shape is an error.
const Skeleton& fit_shape(const Skeleton& sk, const ProblemSpec& spec, const SolveOptions& opts) {
  bool path = spec.goal == Goal::path;
  if (path ? sk.path : sk.placement) return sk;
  if (opts.skeleton.empty() && sk.backend == "gpu") return *find_skeleton("ida");  // the automatic GPU choice
  std::string fits;
  for (const auto& k : skeletons())
    if (path ? k.path : k.placement) fits += (fits.empty() ? "" : ", ") + std::string(k.name);
  Diagnostics d;
  d.error(Loc{make_source("<command line>", "--skeleton " + std::string(sk.name)), 1, 12},
          "skeleton '" + std::string(sk.name) + "' searches " + (path ? "placement" : "path") + " problems; '" +
              spec.name + "' is a " + (path ? "path" : goal_name(spec.goal)) + " problem",
          "skeletons for it: " + fits);
  throw UserErrors(std::move(d));
}

// A spec with branch.ends = 2 runs on the skeletons that place values at both ends; the
// automatic choice falls back to cpu and says so.
const Skeleton& fit_ends(const Skeleton& sk, const ProblemSpec& spec, const SolveOptions& opts, std::string& reason) {
  if (spec.goal == Goal::path || spec.branch.ends == 1 || sk.two_ends) return sk;
  std::string fits;
  for (const auto& k : skeletons())
    if (k.two_ends) fits += (fits.empty() ? "" : ", ") + std::string(k.name);
  if (opts.skeleton.empty() && opts.backend == "auto") {
    reason = "auto: branch.ends = 2 runs on " + fits;
    return *find_skeleton("cpu");
  }
  Diagnostics d;
  d.error(spec.branch.ends_loc,
          "branch.ends = 2 places values at both ends; skeleton '" + std::string(sk.name) +
              "' places them from the left only",
          "skeletons for two ends: " + fits + " (or set the spec's parameters for one end)");
  throw UserErrors(std::move(d));
}

void check_path_options(const SolveOptions& opts, const ProblemSpec& spec) {
  bool path = spec.goal == Goal::path;
  using Given = std::vector<std::pair<const char*, bool>>;
  const Given path_only = {{"--all-solutions", opts.all_solutions}, {"--roots", opts.roots != 0}};
  const Given placement_only = {{"--ub", opts.ub.has_value()}, {"--split-depth", opts.split_depth != 0},
                                {"--dcpu", opts.dcpu != 0},
                                {"--time-limit", opts.time_limit != 0}};
  for (const auto& [name, given] : path ? placement_only : path_only) {
    if (!given) continue;
    Diagnostics d;
    d.error(Loc{make_source("<command line>", name), 1, 1},
            std::string(name) + (path ? " applies to placement problems; '" : " applies to path problems; '") +
                spec.name + "' is a " + goal_name(spec.goal) + " problem");
    throw UserErrors(std::move(d));
  }
}

}  // namespace

PreparedSolve prepare_solve(const SolveOptions& opts) {
  using clock = std::chrono::steady_clock;
  PreparedSolve p{clock::now(), {}, nullptr, {}, {}};
  SolveResult& r = p.header;
  const Skeleton* chosen = &choose_skeleton(opts, r.backend_reason);  // may initialise the driver
  if ((opts.dgpu || opts.child_block_size || opts.child_grids || opts.pending_launches) && !chosen->intermediate_search) {
    Diagnostics d;
    d.error(Loc{make_source("<command line>", "--skeleton " + std::string(chosen->name)), 1, 12},
            "--dgpu, --child-block-size, --child-grids and --pending-launches apply to the skeletons with an "
            "intermediate GPU search "
            "(cdp, rec), not to '" + std::string(chosen->name) + "'");
    throw UserErrors(std::move(d));
  }
  auto t0 = clock::now();
  p.spec = load_spec(opts.load);
  const ProblemSpec& spec = p.spec;
  const Skeleton& sk = fit_ends(fit_shape(*chosen, spec, opts), spec, opts, r.backend_reason);
  p.skeleton = &sk;
  check_path_options(opts, spec);
  if (opts.ub && spec.goal == Goal::count) {
    Diagnostics d;
    d.error(Loc{make_source("<command line>", "--ub " + std::to_string(*opts.ub)), 1, 1},
            "--ub applies to minimize and maximize problems; '" + spec.name + "' counts");
    throw UserErrors(std::move(d));
  }
  check_skeleton_options(opts, sk);
  p.source = generate_problem(spec);
  auto t1 = clock::now();

  r.problem = spec.name;
  r.spec_path = opts.load.spec_path;
  r.instance_path = spec.instance_path;
  for (const auto& q : spec.params) r.params.push_back({q.name, q.value});
  r.goal = spec.goal;
  r.size = spec.size;
  r.backend = std::string(sk.backend);
  r.skeleton = std::string(sk.name);
  r.all_solutions = opts.all_solutions;
  r.has_ub = opts.ub.has_value();
  r.ub = opts.ub.value_or(0);
  r.t_generate = std::chrono::duration<double>(t1 - t0).count();
  return p;
}

SolveResult solve(const SolveOptions& opts) {
  PreparedSolve p = prepare_solve(opts);
  SolveResult r = std::move(p.header);
  SkeletonRun run{p.spec, p.source, opts, r};
  p.skeleton->run(run);
  r.t_total = std::chrono::duration<double>(std::chrono::steady_clock::now() - p.start).count();
  return r;
}

}  // namespace permjit
