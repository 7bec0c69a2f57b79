// `permjit solve --records`: many starts of one path problem in one process. The start
// is run-time data of the module (dsl/start_data.hpp), so the source is the same for
// every record: it is generated, compiled and loaded once, and the skeleton, opened
// once (runtime/core/path_solver.hpp), searches record after record.
#include <chrono>

#include "dsl/diagnostics.hpp"
#include "dsl/source.hpp"
#include "dsl/start_data.hpp"
#include "runtime/core/path_solver.hpp"
#include "runtime/core/record_list.hpp"
#include "runtime/skeletons.hpp"
#include "runtime/solve.hpp"

namespace permjit {

namespace {
// The records LIST names, checked against the instance file before any other work.
std::vector<int> records_named(const SolveOptions& opts, const std::string& list) {
  const std::string shown = "--records " + list;
  if (opts.load.instance_record > 0)
    command_line_error(shown + " --record " + std::to_string(opts.load.instance_record), 1,
                 "--records and --record exclude each other", "--record K solves one record; --records K does too");
  if (opts.load.instance_path.empty())
    command_line_error(shown, 1, "--records names records of an instance file, and no --instance was given",
                 "give the file of one instance per line with --instance FILE");
  SourceRef file = read_source(opts.load.instance_path);
  if (!file)
    command_line_error("--instance " + opts.load.instance_path, 12,
                 "cannot read the instance file '" + opts.load.instance_path +
                     "': " + unreadable_reason(opts.load.instance_path));
  return parse_record_list(list, records_of(file->text), opts.load.instance_path);
}
}  // namespace

RecordsSummary solve_records(const SolveOptions& opts, const std::string& list,
                             const std::function<void(const SolveResult&)>& each) {
  using clock = std::chrono::steady_clock;
  auto since = [](clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); };
  auto wall = clock::now();
  std::vector<int> records = records_named(opts, list);
  // The source is generated from the first record; read_start_record checks that the
  // others differ from it only in their start data.
  SolveOptions first = opts;
  first.load.instance_record = records.front();
  PreparedSolve p = prepare_solve(first);
  if (p.spec.goal != Goal::path)
    command_line_error("--records " + list, 1,
                 "--records applies to path problems; '" + p.spec.name + "' is a " + goal_name(p.spec.goal) + " problem",
                 "solve one instance per run with --instance FILE (and --record K for a file of one per line)");
  require_runnable(*p.skeleton, opts);
  PJ_INTERNAL_ASSERT(p.skeleton->open_path, "path skeleton '" + std::string(p.skeleton->name) + "' cannot be opened");
  auto t_read = clock::now();
  std::vector<StartValues> starts;
  for (int k : records) starts.push_back(read_start_record(p.spec, k));
  double read_s = since(t_read) / static_cast<double>(records.size());

  SolveResult base = p.header;
  SkeletonRun run{p.spec, p.source, p.units, opts, base};
  std::unique_ptr<PathSolver> solver = p.skeleton->open_path(run);
  RecordsSummary sum;
  sum.problem = base.problem;
  sum.skeleton = base.skeleton;
  sum.device = base.device;
  sum.t_generate = base.t_generate;
  sum.t_compile = base.t_compile;
  sum.cache_hit = base.cache_hit;
  sum.pattern_dbs = base.pattern_dbs;
  base.pattern_dbs.reset();  // once for all records: in the summary
  for (size_t i = 0; i < records.size(); ++i) {
    SolveResult r = base;
    r.record = records[i];
    r.t_generate = 0;  // once for all records: in the summary
    r.t_compile = 0;
    solver->solve(starts[i], r);
    r.t_total = read_s + r.t_search;
    ++sum.records;
    sum.expanded += r.expanded;
    sum.t_search += r.t_search;
    each(r);
  }
  sum.t_wall = since(wall);
  return sum;
}

}  // namespace permjit
