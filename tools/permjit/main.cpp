// permjit: exact search over permutations, from a TOML spec to generated code.
#include <CLI/CLI.hpp>
#include <iostream>

#include "dsl/diagnostics.hpp"
#include "dsl/load_spec.hpp"
#include "generator/generate.hpp"
#include "runtime/compile/host_compiler.hpp"
#include "runtime/skeletons.hpp"
#include "runtime/solve.hpp"
#include "tools/permjit/commands.hpp"
#include "tools/permjit/error_report.hpp"
#include "tools/permjit/parse_error_place.hpp"

namespace {

// Options every command that reads a spec takes.
void add_spec_options(CLI::App* cmd, permjit::LoadOptions& load) {
  cmd->add_option("spec", load.spec_path, "the problem spec (.toml)")->required();
  cmd->add_option("--param,-p", load.params, "set a parameter: name=value (repeatable)");
  cmd->add_option("--instance,-i", load.instance_path, "the instance file the spec reads its data from");
  cmd->add_option("--record", load.instance_record,
                  "for a file of one instance per line (e.g. korf100.txt): the line to read, from 1");
  load.data = "auto";
  cmd->add_option("--data", load.data,
                  "auto: run-time, unless the unrolled code would read many values at fixed places (default) | "
                  "run-time: the instance's values read when the module loads, one module per shape | "
                  "compiled: the values in the code, one module per instance");
  cmd->add_flag("--no-symmetry", load.ignore_symmetry,
                "search the whole tree, as if the spec declared no [symmetry] (its errors are still reported)");
}

// Whether the command line asks for --json, read before it is parsed: an error of the
// parse itself is reported as JSON too.
bool asks_for_json(const std::vector<std::string>& args) {
  for (const std::string& a : args) {
    if (a == "--") return false;
    if (a == "--json") return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace permjit;
  CLI::App app{"permjit: exact search over permutations, generated from a TOML spec"};
  app.require_subcommand(1);

  SolveOptions solve_opts;
  bool json = false;
  std::string records;
  long long ub = 0;
  unsigned donate_after = 0;
  CLI::App* solve_cmd = app.add_subcommand("solve", "solve a problem: count, or prove the optimum");
  add_spec_options(solve_cmd, solve_opts.load);
  solve_cmd->add_option("--records", records,
                        "path problems, a file of one instance per line: solve these records in one process with one "
                        "compile (all, 7, 1-100, 3,7,9-12); a line per record, then a summary");
  solve_cmd->add_option("--backend", solve_opts.backend, "auto | cpu | gpu (default auto)");
  solve_cmd->add_option("--skeleton", solve_opts.skeleton, "search skeleton (see `permjit skeletons`)");
  solve_cmd->add_option("--threads", solve_opts.threads, "CPU threads; offload: host threads, each with a pool and slots (default: all)");
  solve_cmd->add_option("--split-depth", solve_opts.split_depth, "levels below the root where threads split the tree");
  solve_cmd->add_option("--dcpu", solve_opts.dcpu, "GPU: depth of the CPU search that builds the frontier (default: from the device)");
  solve_cmd->add_option("--block-size", solve_opts.block_size, "GPU: threads per block (default 128)");
  solve_cmd->add_option("--max-chunk", solve_opts.max_chunk, "GPU: most frontier nodes per kernel launch (default: what fits)");
  solve_cmd->add_option("--dgpu", solve_opts.dgpu, "cdp, rec: depth where the intermediate GPU search stops (default d_cpu + 2)");
  solve_cmd->add_option("--child-block-size", solve_opts.child_block_size,
                        "cdp, rec: threads per block of the final search (default 128)");
  solve_cmd->add_option("--child-grids", solve_opts.child_grids,
                        "cdp: final-search grids each block of the intermediate search launches (default 2)");
  solve_cmd->add_option("--pending-launches", solve_opts.pending_launches,
                        "cdp: the device runtime's pending-launch buffer (default: what one chunk launches)");
  solve_cmd->add_option("--offload", solve_opts.offload, "offload skeleton: bound (the GPU bounds children) | branch (it branches too)");
  solve_cmd->add_option("--pool-max", solve_opts.pool_max, "offload: best-first until the pools hold this many nodes (default 1000000)");
  solve_cmd->add_option("--pool-min", solve_opts.pool_min, "offload: then depth-first until it holds this few (default 200000)");
  solve_cmd->add_option("--batch", solve_opts.batch, "offload: parents per batch sent to the GPU, summed over the host threads (default 32768)");
  solve_cmd->add_option("--in-flight", solve_opts.in_flight, "offload: batches on the GPU at once per host thread (default 4)");
  CLI::Option* ub_opt = solve_cmd->add_option("--ub", ub, "initial bound: nodes whose bound is not better are pruned");
  solve_cmd->add_option("--time-limit", solve_opts.time_limit,
                        "cpu, dfs: stop after this many seconds and report the best found and the nodes searched, "
                        "marked partial (dfs: checked between kernel launches)");
  solve_cmd->add_option("--explorers", solve_opts.explorers, "ivm: explorers (default: as many as the device holds at once)");
  solve_cmd->add_option("--trigger", solve_opts.trigger, "ivm: empty explorers that start a work-stealing phase (default: a quarter)");
  solve_cmd->add_option("--gpus", solve_opts.gpus, "ivm: the GPUs of this host to use: all | N (the first N) | LIST (0,2); default: the first");
  solve_cmd->add_option("--ivm-rows", solve_opts.ivm_rows, "ivm: where explorers keep their rows: auto | shared | local");
  solve_cmd->add_option("--checkpoint", solve_opts.checkpoint, "ivm, cpu: write checkpoints to this file (and on SIGINT/SIGTERM)");
  double improve = 0;
  CLI::Option* improve_opt = solve_cmd->add_option(
      "--improve", improve,
      "cpu, minimize/maximize, with --time-limit: seconds of local search from the best leaf found when the time "
      "limit stops the search (moves of one value to another position, on all threads)");
  double warm_start = 0;
  CLI::Option* warm_start_opt = solve_cmd->add_option(
      "--warm-start", warm_start,
      "minimize/maximize without --ub: seconds of the cpu skeleton (on a GPU skeleton, while its module compiles), "
      "then as long again of local search from its best leaf, which is the search's first incumbent; the cpu "
      "skeleton, without --time-limit, starts over from it only if it did not finish (default 0.3; 0: none)");
  double checkpoint_every = 0;
  CLI::Option* checkpoint_every_opt = solve_cmd->add_option("--checkpoint-every", checkpoint_every,
                                                            "ivm, cpu: seconds between checkpoints (default 60)");
  solve_cmd->add_option("--resume", solve_opts.resume, "ivm, cpu: continue the search saved in this checkpoint");
  solve_cmd->add_flag("--check-indices", solve_opts.check_indices,
                      "cpu: search with a checked build of the module, which reports the first array index out of "
                      "range whose value counts, at its place in the spec (slower; docs/spec-language.md, section 13)");
  bool progress = false, quiet = false;
  solve_cmd->add_flag("--progress", progress, "print progress on stderr even when it is not a terminal");
  solve_cmd->add_flag("--quiet", quiet, "print no progress");
  solve_cmd->add_flag("--json", json, "print the result as one JSON object");
  solve_cmd->add_flag("--all-solutions", solve_opts.all_solutions,
                      "path problems: finish the last IDA* iteration and count every optimal path");
  solve_cmd->add_option("--roots", solve_opts.roots,
                        "path problems: roots of the upper tree that threads or warps share (default: chosen)");
  solve_cmd->add_option("--balance", solve_opts.ida_balance,
                        "ida, ida-thread: static (lists from the last iteration's work) | dynamic (free workers "
                        "take the next item; ida-thread's default) | donate (ida's default: then busy warps give "
                        "nodes to idle ones)");
  CLI::Option* donate_after_opt = solve_cmd->add_option("--donate-after", donate_after,
                        "ida --balance donate: steps a warp searches its work before it gives nodes away "
                        "(default 1024)");
  solve_cmd->add_option("--ida-stack", solve_opts.ida_stack,
                        "ida: entries of a warp's shared-memory stack (default: what keeps 32 warps per SM)");
  solve_cmd->add_option("--cache-dir", solve_opts.cache_dir, "where compiled modules are kept");
  long long target = 0;
  CLI::Option* target_opt = solve_cmd->add_option(
      "--target", target, "minimize/maximize: stop at the first permutation at least as good as this (or prove none is)");
  unsigned long long list_n = 0;
  CLI::Option* list_opt =
      solve_cmd
          ->add_option("--list", list_n,
                       "count/find: write the solutions as they are found, one per line; with N, the first N "
                       "(then stop)")
          ->expected(0, 1);
  solve_cmd->add_flag("--all-optimal", solve_opts.all_optimal,
                      "minimize/maximize: find the optimum, then list every optimal permutation");
  solve_cmd->add_option("--out", solve_opts.list_out, "--list, --all-optimal: write the solutions to this file (default stdout)");
  solve_cmd->add_option("--list-buffer", solve_opts.list_buffer,
                        "dfs, ivm: solutions the device buffer holds at first; it grows when full (default 65536)");
  solve_cmd->add_option("--list-format", solve_opts.list_format, "--list, --all-optimal: lines (default) | json (one object per line)");

  CheckOptions check_opts;
  CLI::App* check_cmd = app.add_subcommand("check", "check a spec (and an instance); print every error");
  add_spec_options(check_cmd, check_opts.load);
  check_cmd->add_flag("--verify-bound", check_opts.verify_bound,
                      "compare the bound with the best leaf below sampled nodes, found by brute force "
                      "(needs the instance; nodes at depth size-8)");
  check_cmd->add_flag("--verify-symmetry", check_opts.verify_symmetry,
                      "solve with the spec's [symmetry] and without it (cpu skeleton) and compare the answers; "
                      "use small parameters");
  check_cmd->add_option("--samples", check_opts.verify.samples, "--verify-bound: random nodes to sample (default 64)");
  check_cmd->add_option("--seed", check_opts.verify.seed, "--verify-bound: the sampling's seed (default 1)");

  EmitOptions emit_opts;
  CLI::App* emit_cmd =
      app.add_subcommand("emit", "print a stage of the pipeline: spec | source | cpu | cuda | ptx | sass | resources");
  add_spec_options(emit_cmd, emit_opts.load);
  emit_cmd->add_option("--stage", emit_opts.stage, "spec | source | cpu | cuda | ptx | sass | resources (default source)");
  emit_cmd->add_option("--arch", emit_opts.arch, "GPU architecture for GPU stages (default sm_90)");
  emit_cmd->add_option("--skeleton", emit_opts.skeleton, "the skeleton whose code to show (see `permjit skeletons`; default: cpu for the cpu stage, else dfs, or ida for a path problem)");

  app.add_subcommand("skeletons", "list the search skeletons of this build");

  const std::vector<std::string> args(argv + 1, argv + argc);
  json = asks_for_json(args);
  try {
    try {
      app.parse(argc, argv);
    } catch (const CLI::Success& e) {  // --help
      return app.exit(e);
    } catch (const CLI::ParseError& e) {
      std::string command;
      for (CLI::App* sub : app.get_subcommands()) command = sub->get_name();
      parse_error_at_place(e, args, command);
    }
    if (*solve_cmd) {
      if (*ub_opt) solve_opts.ub = ub;
      if (*donate_after_opt) solve_opts.donate_after = donate_after;
      if (*checkpoint_every_opt) solve_opts.checkpoint_every = checkpoint_every;
      if (*warm_start_opt) solve_opts.warm_start = warm_start;
      if (*improve_opt) solve_opts.improve = improve;
      if (*target_opt) solve_opts.target = target;
      if (*list_opt) solve_opts.list = list_n;
      // One JSON object is the whole of stdout under --json; solutions written there as
      // they are found would share it. They need a file of their own.
      if (json && (*list_opt || solve_opts.all_optimal) && solve_opts.list_out.empty())
        command_line_error(std::string("--json ") + (*list_opt ? "--list" : "--all-optimal"), 8,
                           std::string("--json prints one JSON object on stdout; the solutions of ") +
                               (*list_opt ? "--list" : "--all-optimal") + " need a place of their own",
                           "add --out FILE");
      if (quiet) solve_opts.progress = SolveOptions::Progress::off;
      else if (progress) solve_opts.progress = SolveOptions::Progress::on;
      if (!records.empty() || solve_cmd->count("--records")) {
        // Each record's line is flushed as it comes, so a long run shows (and keeps) its progress.
        RecordsSummary sum = solve_records(solve_opts, records, [&](const SolveResult& r) {
          std::cout << (json ? format_json(r) + "\n" : format_record_line(r)) << std::flush;
        });
        std::cout << format_records_summary(sum, json);
        return 0;
      }
      SolveResult r = solve(solve_opts);
      if (r.silent) return 0;  // an MPI rank other than 0: rank 0 prints the one result
      std::cout << (json ? format_json(r) + "\n" : format_human(r));
      // Stopped by SIGINT/SIGTERM: the result is printed, and the exit status says that
      // the run was interrupted, as a shell expects of a signalled command.
      return r.interrupted ? 128 + r.interrupted : 0;
    }
    if (*check_cmd) {
      return check_command(check_opts);
    }
    if (*emit_cmd) return emit_command(emit_opts);
    for (const auto& s : skeletons())
      std::cout << s.name << "\t" << (s.run ? backend_name(s.backend) : "emit") << "\t" << s.summary << '\n';
    return 0;
  } catch (const UserErrors& e) {
    return report_user_errors(e, json);
  } catch (const SearchInterrupted& e) {
    return report_failure("permjit: " + std::string(e.what()) + "\n", e.what(), 128 + e.signal, json);
  } catch (const CompileError& e) {
    std::string text = "permjit: error: " + std::string(e.what()) + "\n";
    if (!e.log.empty()) text += e.log + "\n";
    if (!e.saved_source.empty()) text += "the failing source is saved at " + e.saved_source + "\n";
    return report_failure(text, e.what(), kExitOtherError, json);
  } catch (const InternalError& e) {
    return report_failure("permjit: " + std::string(e.what()) + "\n", e.what(), kExitInternalError, json);
  } catch (const std::exception& e) {
    return report_failure("permjit: error: " + std::string(e.what()) + "\n", e.what(), kExitOtherError, json);
  }
}
