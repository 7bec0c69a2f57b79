#include "tools/permjit/solve_command.hpp"

#include <iostream>

#include "dsl/diagnostics.hpp"
#include "runtime/core/progress.hpp"
#include "runtime/solve.hpp"
#include "tools/permjit/spec_options.hpp"

namespace permjit {

void add_solve_command(CLI::App& app, SolveCommand& c, bool& json) {
  c.cmd = app.add_subcommand("solve", "solve a problem: count, or prove the optimum");
  add_spec_options(c.cmd, c.opts.load);
  c.cmd->add_option("--records", c.records,
                    "path problems, a file of one instance per line: solve these records in one process with one "
                    "compile (all, 7, 1-100, 3,7,9-12); a line per record, then a summary");
  for (const SolveOption& row : solve_option_table()) c.flags.add(c.cmd, row, c.opts);
  c.cmd->add_flag("--progress", c.progress,
                  "print progress on stderr even when it is not a terminal (with --json: one JSON object per line)");
  c.cmd->add_flag("--quiet", c.quiet, "print no progress");
  c.cmd->add_flag("--json", json, "print the result as one JSON object");
}

void settle_solve_command(SolveCommand& c, bool json) {
  SolveOptions& opts = c.opts;
  // One JSON object is the whole of stdout under --json; solutions written there as
  // they are found would share it. They need a file of their own.
  if (json && (opts.list || opts.all_optimal) && opts.list_out.empty())
    command_line_error(std::string("--json ") + (opts.list ? "--list" : "--all-optimal"), 8,
                       std::string("--json prints one JSON object on stdout; the solutions of ") +
                           (opts.list ? "--list" : "--all-optimal") + " need a place of their own",
                       "add --out FILE");
  if (c.quiet)
    opts.progress = SolveOptions::Progress::off;
  else if (c.progress)
    opts.progress = SolveOptions::Progress::on;
  // --json --progress: each sample as one JSON line on stderr (stdout holds the result's
  // one object), for notebooks and dashboards.
  if (json && c.progress && !c.quiet)
    opts.on_progress = [skeleton = opts.skeleton](const ProgressSample& s) {
      std::cerr << format_progress_json(skeleton.empty() ? "search" : skeleton, s) << std::endl;
    };
}

int run_solve_command(SolveCommand& c, bool json) {
  settle_solve_command(c, json);
  const SolveOptions& opts = c.opts;
  if (!c.records.empty() || c.cmd->count("--records")) {
    // Each record's line is flushed as it comes, so a long run shows (and keeps) its progress.
    RecordsSummary sum = solve_records(opts, c.records, [&](const SolveResult& r) {
      std::cout << (json ? format_json(r) + "\n" : format_record_line(r)) << std::flush;
    });
    std::cout << format_records_summary(sum, json);
    return 0;
  }
  SolveResult r = solve(opts);
  if (r.silent) return 0;  // an MPI rank other than 0: rank 0 prints the one result
  std::cout << (json ? format_json(r) + "\n" : format_human(r));
  // Stopped by SIGINT/SIGTERM: the result is printed, and the exit status says that
  // the run was interrupted, as a shell expects of a signalled command.
  return r.interrupted ? 128 + r.interrupted : 0;
}

}  // namespace permjit
