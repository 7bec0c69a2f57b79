#include "runtime/core/result.hpp"

#include <csignal>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace permjit {

namespace {
std::string grouped(uint64_t n) {
  std::string s = std::to_string(n), out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i && (s.size() - i) % 3 == 0) out += ',';
    out += s[i];
  }
  return out;
}

std::string perm_text(const std::vector<int>& p) {
  std::string s;
  for (size_t i = 0; i < p.size(); ++i) s += (i ? " " : "") + std::to_string(p[i]);
  return s;
}
// A path problem's answer: cost, one optimal path, the IDA* iterations.
std::string path_text(const SolveResult& r) {
  std::string s;
  if (r.found) {
    s += fmt::format("cost        {} (start heuristic {})\n", r.objective, r.start_h);
    std::string moves;
    for (const auto& m : r.path) moves += (moves.empty() ? "" : " ") + m;
    s += fmt::format("path        {} moves: {}\n", r.path.size(), moves);
  } else if (r.stopped) {
    s += "cost        none found before the search stopped\n";
  } else {
    s += "cost        none: no goal can be reached\n";
  }
  if (r.all_solutions) s += fmt::format("solutions   {} optimal paths (the last iteration finished)\n", grouped(r.solutions));
  for (const auto& it : r.iterations) {
    s += fmt::format("iteration   limit {:3}: expanded {}, evaluated {}, solutions {}", it.limit, grouped(it.expanded),
                     grouped(it.evaluated), grouped(it.solutions));
    if (it.mean_block_expanded > 0)
      s += fmt::format(", work max/mean {:.2f}", static_cast<double>(it.max_block_expanded) / it.mean_block_expanded);
    s += "\n";
  }
  if (r.ida_gpus) {
    std::string gpus, expanded, kernels;
    for (size_t k = 0; k < r.ida_gpus->ordinals.size(); ++k) {
      gpus += fmt::format("{}{}", k ? "," : "", r.ida_gpus->ordinals[k]);
      expanded += fmt::format("{}{}", k ? " / " : "", grouped(r.ida_gpus->expanded[k]));
      kernels += fmt::format("{}{:.3f}", k ? " / " : "", r.ida_gpus->kernel_s[k]);
    }
    s += fmt::format("gpus        {} ({}): expanded below the roots {}; kernels {} s\n", r.ida_gpus->ordinals.size(),
                     gpus, expanded, kernels);
  }
  return s;
}
// "host 0.8 s, nvrtc 2.1 s, load 0.02 s": the stages that ran.
std::string compile_stages_text(const SolveResult::CompileStages& c) {
  std::string s;
  for (auto [name, t] : {std::pair{"host", c.host}, {"nvrtc", c.nvrtc}, {"link", c.link}, {"load", c.load}})
    if (t > 0) s += fmt::format("{}{} {:.3f} s", s.empty() ? "" : ", ", name, t);
  return s.empty() ? "nothing to compile" : s;
}

// Counting, finding and --target: what was found, and whether the search stopped at it.
std::string decision_text(const SolveResult& r) {
  std::string s;
  const std::string stop_note =
      r.reached_limit ? fmt::format(" (the search stopped {:.3f} s after it)", r.find_to_exit) : std::string();
  if (r.target) {
    const bool min = r.goal == Goal::minimize;
    if (r.found) {
      s += fmt::format("target      {}: found {}{}\n", *r.target, r.objective, stop_note);
      s += fmt::format("solution    {}\n", perm_text(r.permutation));
    } else if (!r.stopped) {
      s += fmt::format("target      {}: none at {} {}: every permutation is {} it (proved)\n", *r.target,
                       min ? "most" : "least", *r.target, min ? "above" : "below");
    } else {
      s += fmt::format("target      {}: none found before the time limit\n", *r.target);
    }
    return s;
  }
  if (r.reached_limit && r.goal == Goal::count)
    s += fmt::format("solutions   {} listed, then the search stopped at --list {} (not all were counted)\n",
                     grouped(r.solutions), grouped(r.solutions));
  else if (r.goal == Goal::count)
    s += fmt::format("solutions   {}\n", grouped(r.solutions));
  if (r.listed && r.goal == Goal::count) s += fmt::format("listed      {} to {}\n", grouped(*r.listed), r.listed_to);
  if (r.goal == Goal::find) {
    if (r.found) s += fmt::format("solution    {}{}\n", perm_text(r.permutation), stop_note);
    else if (!r.stopped) s += "solution    none: no complete permutation is allowed (the whole tree was searched)\n";
    else s += "solution    none found before the time limit\n";
  }
  return s;
}

// A stopped search's gap: incumbent and proven bound apart, absolute and relative to the
// incumbent (docs/reliability.md, "Partial answers"); none without both.
std::optional<std::pair<long long, double>> partial_gap(const SolveResult& r) {
  if (!r.found || !r.proven_bound || r.goal == Goal::count || r.goal == Goal::find) return std::nullopt;
  const long long gap = r.objective > *r.proven_bound ? r.objective - *r.proven_bound : *r.proven_bound - r.objective;
  const double rel = r.objective != 0 ? static_cast<double>(gap) / static_cast<double>(r.objective < 0 ? -r.objective : r.objective)
                                      : (gap == 0 ? 0.0 : 1.0);
  return std::pair{gap, rel};
}

// What a stopped search proves, after its answer so far.
std::string partial_text(const SolveResult& r) {
  if (!r.stopped) return {};
  std::string s;
  if (r.proven_bound) {
    const char* side = r.goal == Goal::maximize ? "above" : "below";
    s += fmt::format("bound       {} (proven: nothing is {} it; {})\n", *r.proven_bound, side, r.bound_from);
    if (auto g = partial_gap(r)) s += fmt::format("gap         {} ({:.2f}%)\n", g->first, 100.0 * g->second);
  } else if (r.goal == Goal::minimize || r.goal == Goal::maximize || r.goal == Goal::path) {
    s += "bound       none proven\n";
  }
  if (r.open_subtrees > 0)
    s += fmt::format("open        {} subtree(s) left unexplored\n", grouped(r.open_subtrees));
  return s;
}

// The name of a signal that stops a search (StopSignals handles these two).
const char* signal_name(int sig) {
  switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "a signal";
  }
}

// The wait for the warm start after the GPU module was ready, when it is worth a mention.
std::string waited_text(double waited) {
  return waited >= 0.0005 ? fmt::format(" (waited for {:.3f} s after the compile)", waited) : std::string();
}

nlohmann::ordered_json improve_json(const std::optional<SolveResult::ImproveReport>& m) {
  if (!m) return nullptr;
  return {{"from", m->from},
          {"seconds", m->seconds},
          {"iterations", m->iterations},
          {"evaluations", m->evaluations},
          {"optimal", m->optimal},
          {"greedy", m->greedy}};
}

nlohmann::ordered_json beside_json(const std::optional<SolveResult::BesideReport>& b) {
  if (!b) return nullptr;
  return {{"threads", b->threads},
          {"seconds", b->seconds},
          {"iterations", b->iterations},
          {"starts", b->starts},
          {"improvements", b->improvements},
          {"best", b->best ? nlohmann::ordered_json(*b->best) : nlohmann::ordered_json(nullptr)}};
}

// The pattern databases' stage: tables, entries, time, built or loaded from the cache.
std::string pattern_dbs_line(const SolveResult::PatternDbs& p) {
  const std::string how = p.built == 0          ? "all loaded from the cache"
                          : p.built == p.patterns ? fmt::format("built in {:.3f} s", p.build_seconds)
                                                  : fmt::format("{} built in {:.3f} s, the others loaded from the cache",
                                                                p.built, p.build_seconds);
  return fmt::format("databases   {} pattern table(s), {} entries ({:.1f} MiB): {:.3f} s, {}\n", p.patterns,
                     grouped(p.entries), static_cast<double>(p.entries) / 1048576.0, p.seconds, how);
}

// The idle share (runtime/ivm/ivm_idle.hpp): the run's, then the first GPU's series.
nlohmann::ordered_json ivm_idle_json(const SolveResult::Ivm& v) {
  const double T = static_cast<double>(v.explorers);
  auto sample = [T](const IvmIdleSample& s) {
    const double rounds = static_cast<double>(s.rounds > 0 ? s.rounds : 1);
    return nlohmann::ordered_json{{"t_s", s.t},
                                  {"wall_s", s.wall_s},
                                  {"rounds", s.rounds},
                                  {"idle", s.idle()},
                                  {"busy_at_start", T > 0 ? s.busy_start / rounds / T : 0.0},
                                  {"steals", s.steals},
                                  {"evaluated", s.evaluated},
                                  {"nodes_per_s", s.wall_s > 0 ? static_cast<double>(s.evaluated) / s.wall_s : 0.0}};
  };
  nlohmann::ordered_json j = sample(v.idle.total);
  j["explorer_s"] = v.idle.total.explorer_s;
  j["busy_s"] = v.idle.total.busy_s;
  nlohmann::ordered_json series = nlohmann::ordered_json::array();
  for (const IvmIdleSample& s : v.idle.samples) series.push_back(sample(s));
  j["samples"] = std::move(series);
  return j;
}

nlohmann::ordered_json pattern_dbs_json(const SolveResult::PatternDbs& p) {
  nlohmann::ordered_json j;
  j["patterns"] = p.patterns;
  j["entries"] = p.entries;
  j["bytes"] = p.entries;
  j["seconds"] = p.seconds;
  j["build_seconds"] = p.build_seconds;
  j["built"] = p.built;
  j["cache_hit"] = p.built == 0;
  return j;
}

}  // namespace

std::string format_human(const SolveResult& r) {
  std::string s;
  s += fmt::format("problem     {} ({}), size {}", r.problem, r.spec_path, r.size);
  if (!r.instance_path.empty()) s += ", instance " + r.instance_path;
  if (r.record > 0) s += fmt::format(", record {}", r.record);
  s += "\n";
  if (!r.params.empty()) {
    s += "params     ";
    for (const auto& [k, v] : r.params) s += fmt::format(" {}={}", k, v);
    s += "\n";
  }
  if (r.ivm)  // the device splits the leaves itself: no host threads, no frontier
    s += fmt::format("backend     {} ({}), skeleton {}\n", r.backend, r.backend_reason, r.skeleton);
  else
    s += fmt::format("backend     {} ({}), skeleton {}, {} host thread(s), split at depth {} into {} subtrees\n",
                     r.backend, r.backend_reason, r.skeleton, r.threads, r.frontier_depth, grouped(r.frontier_nodes));
  if (!r.data_mode.empty()) s += fmt::format("data        {}\n", r.data_reason);
  if (r.ranks > 0)
    s += fmt::format("ranges      {} process(es), {} frontier ranges searched{}\n", r.ranks, grouped(r.ranges),
                     r.resumed_subtrees ? fmt::format(", {} subtrees finished before the resume",
                                                      grouped(r.resumed_subtrees))
                                        : std::string());
  if (r.interrupted)
    s += fmt::format("stopped     by signal {} ({}): not complete; what follows is what the search did\n",
                     r.interrupted, signal_name(r.interrupted));
  else if (r.stopped && r.time_limit > 0)
    s += fmt::format("stopped     at the time limit ({} s): not complete; what follows is what the search did\n",
                     r.time_limit);
  else if (r.stopped)  // ranges: PERMJIT_STOP_AFTER_RANGES (tests) or a range that stopped
    s += "stopped     before the end: not complete; what follows is what the finished ranges did\n";
  if (r.goal == Goal::path) {
    s += path_text(r);
  } else if (counts_leaves(r.goal)) {
    s += decision_text(r);
  } else if (r.target) {
    s += decision_text(r);
  } else {
    const char* word = r.goal == Goal::minimize ? "minimum" : "maximum";
    if (r.stopped) {
      if (r.found) s += fmt::format("best found  {}\nsolution    {}\n", r.objective, perm_text(r.permutation));
      else s += "best found  none\n";
    } else if (r.found) {
      s += fmt::format("{}     {}\n", word, r.objective);
      s += fmt::format("solution    {}\n", perm_text(r.permutation));
    } else if (r.has_ub) {
      s += fmt::format("{}     none {} {} (the given --ub): the optimum is {} if --ub is a feasible value\n", word,
                       r.goal == Goal::minimize ? "below" : "above", r.ub, r.ub);
    } else {
      s += fmt::format("{}     none: no complete permutation is feasible\n", word);
    }
  }
  s += partial_text(r);
  if (r.improve) {
    const auto& m = *r.improve;
    const char* start = m.greedy ? " (the greedy leaf: the search met none)" : "";
    if (r.objective != m.from)
      s += fmt::format("improved    from {}{} by {:.3f} s of local search ({} kicks){}\n", m.from, start, m.seconds,
                       grouped(m.iterations), m.optimal ? ", to the root's bound: optimal" : "");
    else
      s += fmt::format("improved    no: {:.3f} s of local search ({} kicks) found nothing better{}\n", m.seconds,
                       grouped(m.iterations), m.greedy ? " than the greedy leaf (the search met none)" : "");
  }
  if (r.all_optimal && r.listed)
    s += fmt::format("optimal     {} permutation(s) listed to {}\n", grouped(*r.listed), r.listed_to);
  if (r.warm_start) {
    const auto& w = *r.warm_start;
    if (w.objective && w.improve)
      s += fmt::format("warm start  {} from {:.3f} s of the cpu skeleton ({}{}) and local search, the search's first "
                       "incumbent{}\n",
                       *w.objective, w.seconds, w.improve->from, w.improve->greedy ? ", the greedy leaf" : "",
                       waited_text(w.waited));
    else if (w.objective)
      s += fmt::format("warm start  {} from {:.3f} s of the cpu skeleton{}, the search's first incumbent{}\n",
                       *w.objective, w.seconds, w.complete ? " (which finished)" : "", waited_text(w.waited));
    else if (!w.failure.empty())
      s += fmt::format("warm start  none: {}\n", w.failure);
    else
      s += fmt::format("warm start  none found in {:.3f} s\n", w.seconds);
    if (w.beside && w.beside->best)
      s += fmt::format("beside      local search on {} thread(s) beside the search: {} better leaves, the best {}\n",
                       w.beside->threads, w.beside->improvements, *w.beside->best);
    else if (w.beside)
      s += fmt::format("beside      local search on {} thread(s) beside the search ({:.3f} s) found nothing better\n",
                       w.beside->threads, w.beside->seconds);
  }
  if (r.pattern_dbs) s += pattern_dbs_line(*r.pattern_dbs);
  s += fmt::format("nodes       expanded {}, evaluated {}\n", grouped(r.expanded), grouped(r.evaluated));
  s += fmt::format("time        {:.3f} s: spec+generate {:.3f} s, compile {:.3f} s ({}: {}), search {:.3f} s\n",
                   r.t_total, r.t_generate, r.t_compile, r.cache_hit ? "cache hit" : "compiled",
                   compile_stages_text(r.compile), r.t_search);
  if (r.backend == "gpu" && !r.offload_mode.empty()) {
    s += fmt::format("search      kernels running {:.3f} s, none running {:.3f} s (the device waited for the {} host "
                     "thread(s) or copies; {} batch(es), {} threads/block)\n",
                     r.t_kernels, r.t_host, r.threads, r.chunks, r.block_size);
    s += fmt::format("offload     {} on the device, largest pool {}\n",
                     r.offload_mode == "branch" ? "branching and bounding" : "bounding", grouped(r.max_pool));
  } else if (r.ivm) {
    const SolveResult::Ivm& v = *r.ivm;
    s += fmt::format("search      host {:.3f} s (split, setup), transfers {:.3f} s, exploration kernels {:.3f} s, "
                     "work stealing {:.3f} s ({} threads/block)\n",
                     r.t_host, r.t_transfers, r.t_kernels, v.t_balance, r.block_size);
    s += fmt::format("ivm         {} explorers{}, rows in {} memory, trigger {}, {} rounds, {} steals{}{}\n",
                     grouped(v.explorers), v.gpus > 1 ? fmt::format(" on each of {} GPUs", v.gpus) : "", v.rows,
                     grouped(v.trigger), grouped(v.rounds), grouped(v.steals),
                     v.gpus > 1 ? fmt::format(", {} transfers between GPUs", grouped(v.transfers)) : "",
                     v.resumed_from.empty() ? "" : ", resumed from " + v.resumed_from);
    if (v.idle.total.rounds > 0) {
      const IvmIdleSample& t = v.idle.total;
      const double rounds = static_cast<double>(t.rounds);
      const double rounds_per_gpu = rounds / static_cast<double>(v.gpus > 1 ? v.gpus : 1);
      s += fmt::format("idle        {:.1f}% of the explorers' time in the exploration kernels; {:.1f}% with work "
                       "at a round's start, {:.1f} steals and {:.2f} ms a round ({})\n",
                       100 * t.idle(), 100 * t.busy_start / rounds / static_cast<double>(v.explorers),
                       static_cast<double>(t.steals) / rounds, 1e3 * t.wall_s / rounds_per_gpu, v.balance);
    }
    if (v.ranks > 0)
      s += fmt::format("mpi         {} ranks, a GPU each; rank 0 answered {} messages in {:.3f} s\n", v.ranks,
                       grouped(v.messages), v.coordinator_busy);
  } else if (r.backend == "gpu") {
    s += fmt::format("search      host {:.3f} s (CPU search to d_cpu, layout), transfers {:.3f} s, kernels {:.3f} s "
                     "({} chunk(s), {} threads/block)\n",
                     r.t_host, r.t_transfers, r.t_kernels, r.chunks, r.block_size);
    s += fmt::format("d_cpu       {} ({})\n", r.frontier_depth, r.dcpu_reason);
    if (r.dgpu > 0)
      s += fmt::format("d_gpu       {} ({}): {} nodes stored (fullest block {}), final search in {} grid(s) of {} "
                       "threads, {}\n",
                       r.dgpu, r.dgpu_reason, grouped(r.gpu_frontier_nodes), grouped(r.max_block_load),
                       grouped(r.child_launches), r.child_block_size,
                       r.child_grids ? fmt::format("up to {} per block, launched from the device", r.child_grids)
                                     : std::string("launched from the host"));
    if (!r.memory_plan.empty()) s += fmt::format("memory      {}\n", r.memory_plan);
  }
  if (r.backend == "gpu") {
    s += fmt::format("device      {}\n", r.device);
    if (r.t_kernels > 0) s += fmt::format("rate        {:.3g} evaluated nodes/s in kernels\n", r.evaluated / r.t_kernels);
  }
  if (r.t_search > 0) s += fmt::format("rate        {:.3g} evaluated nodes/s (search)\n", r.evaluated / r.t_search);
  return s;
}

std::string format_json(const SolveResult& r) {
  nlohmann::ordered_json j;
  j["problem"] = r.problem;
  j["spec"] = r.spec_path;
  j["instance"] = r.instance_path.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.instance_path);
  if (r.record > 0) j["record"] = r.record;
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (const auto& [k, v] : r.params) params[k] = v;
  j["params"] = params;
  j["goal"] = goal_name(r.goal);
  j["size"] = r.size;
  j["backend"] = r.backend;
  j["skeleton"] = r.skeleton;
  j["device"] = r.device;
  j["threads"] = r.threads;
  j["frontier_depth"] = r.frontier_depth;
  j["frontier_nodes"] = r.frontier_nodes;
  j["ub"] = r.has_ub ? nlohmann::ordered_json(r.ub) : nlohmann::ordered_json(nullptr);
  if (r.goal == Goal::path) {
    j["found"] = r.found;
    j["cost"] = r.found ? nlohmann::ordered_json(r.objective) : nlohmann::ordered_json(nullptr);
    j["path"] = r.path;
    j["all_solutions"] = r.all_solutions;
    j["solutions"] = r.solutions;
    j["start_h"] = r.start_h;
    nlohmann::ordered_json its = nlohmann::ordered_json::array();
    for (const auto& it : r.iterations)
      its.push_back({{"limit", it.limit}, {"expanded", it.expanded}, {"evaluated", it.evaluated},
                     {"solutions", it.solutions}, {"max_block_expanded", it.max_block_expanded},
                     {"mean_block_expanded", it.mean_block_expanded}, {"donated", it.donated},
                     {"seconds", it.seconds}});
    for (size_t k = 0; k < r.iterations.size(); ++k)
      if (!r.iterations[k].gpu_expanded.empty()) its[k]["gpu_expanded"] = r.iterations[k].gpu_expanded;
    j["iterations"] = its;
    if (r.ida_gpus)
      j["ida_gpus"] = {{"gpus", r.ida_gpus->ordinals},
                       {"expanded", r.ida_gpus->expanded},
                       {"kernel_s", r.ida_gpus->kernel_s}};
  } else if (r.goal == Goal::count) {
    j["solutions"] = r.solutions;
  } else if (r.goal == Goal::find) {
    j["found"] = r.found;
    j["permutation"] = r.found ? nlohmann::ordered_json(r.permutation) : nlohmann::ordered_json(nullptr);
    j["solutions"] = r.solutions;
  } else {
    j["found"] = r.found;
    j["objective"] = r.found ? nlohmann::ordered_json(r.objective) : nlohmann::ordered_json(nullptr);
    j["permutation"] = r.found ? nlohmann::ordered_json(r.permutation) : nlohmann::ordered_json(nullptr);
  }
  j["target"] = r.target ? nlohmann::ordered_json(*r.target) : nlohmann::ordered_json(nullptr);
  j["all_optimal"] = r.all_optimal;
  j["listed"] = r.listed ? nlohmann::ordered_json(*r.listed) : nlohmann::ordered_json(nullptr);
  j["reached_limit"] = r.reached_limit;
  j["find_to_exit_s"] = r.reached_limit ? nlohmann::ordered_json(r.find_to_exit) : nlohmann::ordered_json(nullptr);
  // Only a complete search proves its answer (or counts every solution); one stopped at
  // its solution limit answered its question.
  j["complete"] = !r.stopped;
  j["time_limit_s"] = r.time_limit > 0 ? nlohmann::ordered_json(r.time_limit) : nlohmann::ordered_json(nullptr);
  j["interrupted_by_signal"] = r.interrupted ? nlohmann::ordered_json(r.interrupted) : nlohmann::ordered_json(nullptr);
  // A stopped search's proof (null when complete): the proven bound, where it comes from,
  // the gap to the incumbent, and the subtrees left unexplored (0: not known).
  if (r.stopped) {
    const auto gap = partial_gap(r);
    j["partial"] = {{"proven_bound", r.proven_bound ? nlohmann::ordered_json(*r.proven_bound) : nlohmann::ordered_json(nullptr)},
                    {"bound_from", r.proven_bound ? nlohmann::ordered_json(r.bound_from) : nlohmann::ordered_json(nullptr)},
                    {"root_bound", r.root_bound ? nlohmann::ordered_json(*r.root_bound) : nlohmann::ordered_json(nullptr)},
                    {"gap", gap ? nlohmann::ordered_json(gap->first) : nlohmann::ordered_json(nullptr)},
                    {"gap_relative", gap ? nlohmann::ordered_json(gap->second) : nlohmann::ordered_json(nullptr)},
                    {"open_subtrees", r.open_subtrees}};
  } else {
    j["partial"] = nullptr;
  }
  j["improve"] = improve_json(r.improve);
  if (r.warm_start)
    j["warm_start"] = {{"objective", r.warm_start->objective ? nlohmann::ordered_json(*r.warm_start->objective)
                                                             : nlohmann::ordered_json(nullptr)},
                       {"seconds", r.warm_start->seconds},
                       {"complete", r.warm_start->complete},
                       {"waited_s", r.warm_start->waited},
                       {"improve", improve_json(r.warm_start->improve)},
                       {"beside", beside_json(r.warm_start->beside)}};
  else
    j["warm_start"] = nullptr;
  j["nodes"] = {{"expanded", r.expanded}, {"evaluated", r.evaluated}};
  j["compile_s"] = {{"host", r.compile.host}, {"nvrtc", r.compile.nvrtc}, {"link", r.compile.link},
                    {"load", r.compile.load}};
  j["time_s"] = {{"total", r.t_total},     {"generate", r.t_generate}, {"compile", r.t_compile},
                 {"search", r.t_search},   {"host", r.t_host},         {"transfers", r.t_transfers},
                 {"kernels", r.t_kernels}, {"prepare", r.t_prepare},
                 {"upper", r.t_upper},     {"split", r.t_split}};
  if (r.backend == "cpu" && r.goal != Goal::path) j["donations"] = r.donations;
  if (r.ranks > 0)
    j["ranges"] = {{"ranks", r.ranks},
                   {"searched", r.ranges},
                   {"resumed_subtrees", r.resumed_subtrees},
                   {"messages", r.messages},
                   {"coordinator_busy_s", r.coordinator_busy}};
  if (r.ivm) {
    const SolveResult::Ivm& v = *r.ivm;
    j["ivm"] = {{"explorers", v.explorers}, {"rows", v.rows},           {"trigger", v.trigger},
                {"rounds", v.rounds},       {"steals", v.steals},       {"balance_s", v.t_balance},
                {"gpus", v.gpus},           {"transfers", v.transfers}, {"resumed_from", v.resumed_from},
                {"ranks", v.ranks},         {"messages", v.messages},   {"coordinator_busy_s", v.coordinator_busy},
                {"open_bound_s", v.t_open_bound}, {"balance", v.balance},   {"idle", ivm_idle_json(v)}};
    j["ivm"]["bound_samples"] = {{"count", v.bound_samples}, {"seconds", v.t_bound_samples}};
    j["ivm"]["open_unit"] = {{"how", v.open_unit}, {"compile_s", v.t_open_compile}, {"waited_s", v.t_open_wait}};
    if (r.stopped)
      j["ivm"]["refine"] = {{"seconds", v.t_refine},
                            {"passes", v.refine_passes},
                            {"depth", v.refine_depth},
                            {"nodes", v.refine_nodes},
                            {"proved", v.refine_proved ? nlohmann::ordered_json(*v.refine_proved) : nlohmann::ordered_json(nullptr)},
                            {"resumed_floor", v.resumed_floor ? nlohmann::ordered_json(*v.resumed_floor) : nlohmann::ordered_json(nullptr)}};
  }
  j["block_size"] = r.block_size;
  j["chunks"] = r.chunks;
  if (r.dgpu > 0)
    j["cdp"] = {{"dgpu", r.dgpu},
                {"gpu_frontier_nodes", r.gpu_frontier_nodes},
                {"max_block_load", r.max_block_load},
                {"child_launches", r.child_launches},
                {"child_block_size", r.child_block_size},
                {"child_grids", r.child_grids},
                {"pending_launch_limit", r.pending_launch_limit},
                {"memory_plan", r.memory_plan}};
  if (r.dgpu == 0 && !r.memory_plan.empty()) j["memory_plan"] = r.memory_plan;
  j["cache_hit"] = r.cache_hit;
  if (r.pattern_dbs) j["pattern_databases"] = pattern_dbs_json(*r.pattern_dbs);
  if (!r.data_mode.empty()) j["data"] = {{"mode", r.data_mode}, {"why", r.data_reason}};
  if (!r.offload_mode.empty()) j["offload"] = {{"mode", r.offload_mode}, {"batches", r.chunks}, {"max_pool", r.max_pool}};
  j["evaluated_per_s"] = r.t_search > 0 ? r.evaluated / r.t_search : 0.0;
  return j.dump();
}


std::string format_record_line(const SolveResult& r) {
  std::string answer = r.found ? fmt::format("cost {:4}, {:3} moves", r.objective, r.path.size()) : "no path        ";
  return fmt::format("record {:4}: {}, expanded {:>15}, evaluated {:>15}, {} iterations, search {:.3f} s\n", r.record,
                     answer, grouped(r.expanded), grouped(r.evaluated), r.iterations.size(), r.t_search);
}

std::string format_records_summary(const RecordsSummary& s, bool json) {
  if (json) {
    nlohmann::ordered_json j;
    j["summary"] = {{"problem", s.problem},     {"skeleton", s.skeleton},     {"device", s.device},
                    {"records", s.records},     {"expanded", s.expanded},     {"cache_hit", s.cache_hit},
                    {"generate_s", s.t_generate}, {"compile_s", s.t_compile}, {"search_s", s.t_search},
                    {"wall_s", s.t_wall}};
    if (s.pattern_dbs) j["summary"]["pattern_databases"] = pattern_dbs_json(*s.pattern_dbs);
    return j.dump() + "\n";
  }
  return (s.pattern_dbs ? pattern_dbs_line(*s.pattern_dbs) : std::string()) + fmt::format("records     {} ({}, skeleton {}, {}): search {:.3f} s in all, spec+generate {:.3f} s, "
                     "compile {:.3f} s ({}), wall {:.3f} s\n",
                     s.records, s.problem, s.skeleton, s.device, s.t_search, s.t_generate, s.t_compile,
                     s.cache_hit ? "cache hit" : "compiled", s.t_wall);
}

}  // namespace permjit
