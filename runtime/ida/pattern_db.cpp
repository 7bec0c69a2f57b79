#include "runtime/ida/pattern_db.hpp"

#include <chrono>
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "dsl/diagnostics.hpp"

namespace permjit {

namespace {
using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

// A build holds its table and the buckets of the search (4-byte indices; at most about
// one per entry are alive at once on the sliding puzzles, budgeted at one per entry).
constexpr unsigned long long kBuildBytesPerEntry = 1 + 4;
constexpr int kReflectionSteps = 20000;  // nodes of the walk that checks a reflection

std::string mib(unsigned long long bytes) { return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB"; }

bool read_table(const std::string& path, std::vector<unsigned char>& table) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return false;
  if (static_cast<unsigned long long>(in.tellg()) != table.size()) return false;
  in.seekg(0);
  in.read(reinterpret_cast<char*>(table.data()), static_cast<std::streamsize>(table.size()));
  return static_cast<bool>(in);
}

bool write_table(const std::string& path, const std::vector<unsigned char>& table) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(table.data()), static_cast<std::streamsize>(table.size()));
  out.close();
  return static_cast<bool>(out);
}

std::string goal_text(const std::vector<int>& goal) {
  std::string s;
  for (int v : goal) s += std::to_string(v) + ",";
  return s;
}

// A build's failure, at the pattern (or the goal) it is about.
[[noreturn]] void build_failed(const ProblemSpec& spec, const Pattern& pat, int code, const PjPdbBuildInfo& info) {
  const PatternDatabases& p = spec.path.databases;
  const auto& moves = spec.path.moves;
  const std::string move = info.move >= 0 && info.move < static_cast<int>(moves.size())
                               ? "move '" + moves[static_cast<size_t>(info.move)].name + "'"
                               : "a move";
  Diagnostics d;
  switch (code) {
    case PJ_PDB_NOT_GOAL:
      d.error(p.goal_loc, "the goal permutation '" + p.goal_item + "' does not pass [path] goal",
              "the tables hold costs to this permutation: it must be the goal");
      break;
    case PJ_PDB_STATE:
      d.error(pat.loc, "the state is not decided by the positions of this pattern's and the tracked values" +
                           (info.move >= 0 ? " (after " + move + ")" : std::string()),
              "track the values whose positions the state follows (e.g. track = [0] for a blank)");
      break;
    case PJ_PDB_FAR:
      d.error(pat.loc, "an abstract state of this pattern is more than 254 from the goal's (after " + move + ")",
              "a table holds a byte per state: use smaller costs or fewer values");
      break;
    case PJ_PDB_SHARED_MOVE:
      d.error(pat.loc, move + " exchanges a value of this pattern with an untracked one: in an additive group "
                              "both patterns could count it",
              "track the value every move exchanges (e.g. the blank), or put this pattern in a group of its own");
      break;
    case PJ_PDB_NO_MEMORY:
      d.error(pat.loc, "the memory ran out while this pattern's table was built", "use smaller patterns");
      break;
    default:
      PJ_INTERNAL_ASSERT(false, "pattern database build returned " + std::to_string(code));
  }
  throw UserErrors(std::move(d));
}
}  // namespace

unsigned long long pdb_memory_available() {
  if (const char* e = std::getenv("PERMJIT_PDB_MEMORY")) return std::strtoull(e, nullptr, 10);
  std::ifstream in("/proc/meminfo");
  std::string key;
  unsigned long long kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return ~0ull;  // unknown: the build's own allocation failure is then the check
}

PatternTables::PatternTables(const ProblemSpec& spec, const IdaModule& module, const std::string& key_source,
                             const ModuleCache& cache, int threads) {
  const PatternDatabases& p = spec.path.databases;
  if (!p.on) return;
  auto t0 = clock_type::now();
  const int n = module.pdb_count();
  PJ_INTERNAL_ASSERT(n == static_cast<int>(p.patterns.size()), "the module has " + std::to_string(n) +
                                                                   " pattern tables, the spec " +
                                                                   std::to_string(p.patterns.size()));
  stage_.patterns = n;
  if (!p.reflect_positions.empty()) {
    // A reflection that is not a symmetry would make the reflected lookups overestimate.
    PjPdbBuildInfo info{};
    if (module.check_pdb_reflection(p.goal.data(), kReflectionSteps, info) != PJ_PDB_OK) {
      Diagnostics d;
      d.error(p.reflect_loc, "the reflection is not a symmetry of the moves: a node's children, reflected, are not "
                             "its reflection's children",
              "reflect must map every move to a move of the same cost (checked on a random walk from the goal)");
      throw UserErrors(std::move(d));
    }
  }
  tables_.resize(static_cast<size_t>(n));
  std::vector<std::string> keys(static_cast<size_t>(n));
  std::vector<int> to_build;
  unsigned long long held = 0;
  for (int k = 0; k < n; ++k) {
    const unsigned long long entries = module.pdb_entries(k);
    PJ_INTERNAL_ASSERT(entries == p.patterns[static_cast<size_t>(k)].entries, "pattern table sizes differ");
    stage_.entries += entries;
    keys[static_cast<size_t>(k)] =
        cache_key({"pattern database 1", key_source, std::to_string(k), goal_text(p.goal)});
    auto& table = tables_[static_cast<size_t>(k)];
    const auto found = cache.lookup(keys[static_cast<size_t>(k)], ".pdb");
    // The memory of the tables held so far, then of this one's load or build.
    const unsigned long long need = held + entries * (found ? 1 : kBuildBytesPerEntry);
    const unsigned long long avail = pdb_memory_available();
    if (need > avail) {
      Diagnostics d;
      d.error(p.patterns[static_cast<size_t>(k)].loc,
              "this pattern's table (" + std::to_string(entries) + " entries) needs " + mib(need) +
                  " with the tables before it; the machine has " + mib(avail) + " available",
              "use smaller patterns");
      throw UserErrors(std::move(d));
    }
    held += entries;
    table.resize(entries);
    if (found && read_table(*found, table)) continue;
    if (found) cache.drop(keys[static_cast<size_t>(k)], ".pdb");
    to_build.push_back(k);
  }
  // The builds one after another, each on every thread (a table's breadth-first search
  // expands a bucket's states side by side): the largest table, which decides the
  // wall time when they are built side by side on a thread each, then takes a share of it.
  auto tb = clock_type::now();
  std::vector<int> codes(static_cast<size_t>(n), PJ_PDB_OK);
  std::vector<PjPdbBuildInfo> infos(static_cast<size_t>(n));
  for (int k : to_build)
    codes[static_cast<size_t>(k)] = module.build_pdb(k, p.goal.data(), tables_[static_cast<size_t>(k)].data(),
                                                     std::max(1, threads), infos[static_cast<size_t>(k)]);
  for (int k : to_build)
    if (codes[static_cast<size_t>(k)] != PJ_PDB_OK)
      build_failed(spec, p.patterns[static_cast<size_t>(k)], codes[static_cast<size_t>(k)],
                   infos[static_cast<size_t>(k)]);
  stage_.built = static_cast<int>(to_build.size());
  stage_.build_seconds = to_build.empty() ? 0 : since(tb);
  for (int k : to_build) {
    // A cache that cannot be written costs the next run a build, nothing else.
    const std::string tmp = cache.temp_path(".pdb");
    if (write_table(tmp, tables_[static_cast<size_t>(k)])) cache.store(keys[static_cast<size_t>(k)], ".pdb", tmp);
    else std::remove(tmp.c_str());
  }
  std::vector<const unsigned char*> ptrs;
  for (const auto& t : tables_) ptrs.push_back(t.data());
  module.set_pdb_tables(ptrs);
  stage_.seconds = since(t0);
}

}  // namespace permjit
