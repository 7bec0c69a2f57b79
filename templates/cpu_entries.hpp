// The cpu module's entry points (templates/cpu_abi.h): the search, the range searches
// of a distributed run, and the frontier a GPU skeleton starts from, each over the
// machinery of templates/cpu_dfs.hpp. A file of their own because they are what the
// host compiler instantiates: a unit that uses the machinery for something else (the
// offload skeleton's pool, templates/cpu_offload.hpp) leaves this file out and
// compiles in half the time (docs/decisions.md, "The offload host unit without the
// cpu entry points").

extern "C" int pj_cpu_abi(void) { return PJ_CPU_ABI; }

extern "C" int pj_cpu_search(const PjCpuArgs* args, PjCpuResult* out) {
  return pj::guarded([&]() -> int {
    using namespace cpu_skeleton;
    PoolSearch s(args);
    // Enough subtrees for the threads to start with, or the depth asked for (below the
    // root); donations balance the rest.
    int depth = 0;
    std::vector<Subtree> frontier =
        split(args, s.until, s.sh, s.total, depth, s.threads, static_cast<size_t>(s.threads) * 64);
    out->frontier_depth = depth;
    out->frontier_nodes = frontier.size();
    s.run(args, std::move(frontier), out);
    return 0;
  });
}

extern "C" int pj_cpu_ranges_open(const PjCpuArgs* args, int depth_at, unsigned long long min_nodes,
                                  void** handle, PjCpuResult* frontier) {
  return pj::guarded([&]() -> int {
    using namespace cpu_skeleton;
      auto r = std::make_unique<Ranges>();
    Shared sh;
    start_incumbent(sh, args);
    Counters total;
    int depth = 0;
    const int threads = args->threads > 0 ? args->threads : 1;
    const int at = depth_at > 0 ? depth_at : args->split_depth > 0 ? problem::kPrefixLength + args->split_depth : 0;
    r->frontier = whole_frontier(sh, total, depth, threads, at, min_nodes, args->stop_request);
    if (args->stop_request && *args->stop_request) return pj::kStoppedCode;
    *frontier = PjCpuResult{};
    fill_result(frontier, total, sh);
    frontier->frontier_depth = depth;
    frontier->frontier_nodes = r->frontier.size();
    *handle = r.release();
    return 0;
  });
}

extern "C" int pj_cpu_ranges_search(void* handle, const PjCpuArgs* args, unsigned long long begin,
                                    unsigned long long end, PjCpuResult* out) {
  return pj::guarded([&]() -> int {
    using namespace cpu_skeleton;
    auto& r = *static_cast<Ranges*>(handle);
    if (begin > end || end > r.frontier.size()) return 2;
    PoolSearch s(args);
    *out = PjCpuResult{};
    s.run(args,
          std::vector<Subtree>(r.frontier.begin() + static_cast<long>(begin), r.frontier.begin() + static_cast<long>(end)),
          out);
    return 0;
  });
}

extern "C" int pj_cpu_ranges_open_work(void* handle, int has_ub, long long ub, unsigned long long begin,
                                       unsigned long long end, PjCpuResult* out) {
  return pj::guarded([&]() -> int {
    using namespace cpu_skeleton;
    auto& r = *static_cast<Ranges*>(handle);
    if (begin > end || end > r.frontier.size()) return 2;
    PjCpuArgs args{};
    args.has_ub = has_ub;
    args.ub = ub;
    Shared sh;
    start_incumbent(sh, &args);
    WorkPool pool(1);
    pool.set_frontier(
        std::vector<Subtree>(r.frontier.begin() + static_cast<long>(begin), r.frontier.begin() + static_cast<long>(end)));
    *out = PjCpuResult{};
    note_left(sh, pool, out);  // none was taken: every subtree of the range is left
    return 0;
  });
}

extern "C" void pj_cpu_ranges_close(void* handle) { delete static_cast<cpu_skeleton::Ranges*>(handle); }

extern "C" int pj_cpu_frontier(const PjCpuArgs* args, int depth, unsigned long long min_nodes, int with_prefix,
                               PjFrontier* out) {
  return pj::guarded([&]() -> int {
    using namespace cpu_skeleton;
    // The frontier's interface hands out prefixes: values placed from the left only.
    if constexpr (problem::kEnds == 2) return 2;
    Shared sh;
    start_incumbent(sh, args);
    Counters total;
    int reached = 0;
    std::vector<Subtree> level = whole_frontier(sh, total, reached, args->threads, depth, min_nodes, nullptr);
    out->count = level.size();
    out->depth = reached;
    out->node_bytes = static_cast<int>(sizeof(Node));
    out->nodes = std::malloc(level.size() * sizeof(Node) + 1);
    out->prefix = with_prefix ? static_cast<unsigned char*>(std::malloc(level.size() * problem::kSize + 1)) : nullptr;
    if (!out->nodes || (with_prefix && !out->prefix)) return 1;
    Node* nodes = static_cast<Node*>(out->nodes);
    auto copy = [&](size_t b, size_t e) {
      for (size_t i = b; i < e; ++i) {
        nodes[i] = level[i].node;
        if (with_prefix)
          for (int j = 0; j < problem::kSize; ++j)
            out->prefix[i * problem::kSize + j] = static_cast<unsigned char>(j < reached ? level[i].perm[j] : 0);
      }
    };
    size_t parts = level.size() >= 65536 && args->threads > 1 ? static_cast<size_t>(args->threads) : 1;
    pj::run_team(static_cast<int>(parts),
                 [&](int t) { copy(level.size() * t / parts, level.size() * (t + 1) / parts); });
    fill_result(&out->counts, total, sh);
    out->counts.frontier_depth = reached;
    out->counts.frontier_nodes = level.size();
    return 0;
  });
}

extern "C" void pj_cpu_frontier_free(PjFrontier* f) {
  std::free(f->nodes);
  std::free(f->prefix);
  f->nodes = nullptr;
  f->prefix = nullptr;
}
