#include "runtime/option_table.hpp"

#include <algorithm>
#include <type_traits>
#include <vector>

#include <fmt/core.h>

#include "dsl/diagnostics.hpp"
#include "runtime/distributed/mpi_launch.hpp"

namespace permjit {

namespace {

using S = SolveOptions;
using enum SkeletonId;

// The skeletons that build a CPU frontier and finish it on the GPU.
constexpr SkeletonSet kFrontierGpu = dfs | cdp | rec;
// The skeletons that record solutions: they list them and stop at a target.
constexpr SkeletonSet kRecording = cpu | dfs | ivm | cdp | rec;

// Seconds are checked with `!(x > 0)` rather than `x <= 0`: NaN compares false either
// way, and a NaN limit was taken as no limit. `inf` and values past
// pj::kForeverSeconds are no limit (templates/host_deadline.hpp).
bool positive(double seconds) { return seconds > 0; }
bool not_negative(double seconds) { return seconds >= 0; }

// In the order of `solve --help`. The general options come first (no skeleton refuses
// them); then those some skeletons take, in the order their mistakes are reported.
const SolveOption kOptions[] = {
    {.flag = "--backend", .field = &S::backend, .help = "auto | cpu | gpu (default auto)"},
    {.flag = "--skeleton", .field = &S::skeleton, .help = "search skeleton (see `permjit skeletons`)"},
    {.flag = "--threads",
     .field = &S::threads,
     .help = "CPU threads; offload: host threads, each with a pool and slots (default: all)"},
    {.flag = "--ub", .field = &S::ub, .help = "initial bound: nodes whose bound is not better are pruned"},
    {.flag = "--cache-dir", .field = &S::cache_dir, .help = "where compiled modules are kept"},
    {.flag = "--out",
     .field = &S::list_out,
     .help = "--list, --all-optimal: write the solutions to this file (default stdout)"},
    {.flag = "--list-format",
     .field = &S::list_format,
     .help = "--list, --all-optimal: lines (default) | json (one object per line)"},

    {.flag = "--time-limit",
     .field = &S::time_limit,
     .help = "cpu, dfs, ivm, ida, ida-thread, offload: stop after this many seconds and report the best found, a "
             "proven bound (cpu, ivm, ida, ida-thread, offload) and the nodes searched, marked partial (dfs: checked "
             "between kernel launches; ivm: between rounds, with a checkpoint when asked; ida, ida-thread: between "
             "IDA* iterations and inside one, whose limit is then the bound (ida-thread: at its next root); "
             "offload: before each batch, and a second stage's kernels in flight leave their remaining children)",
     .taken_by = cpu | dfs | ivm | ida | ida_thread | offload,
     .invalid = [](const S& o) {
       return !positive(o.time_limit) ? std::string("--time-limit takes a number of seconds above 0 (inf: no limit)")
                                      : std::string();
     }},
    {.flag = "--improve",
     .field = &S::improve,
     .help = "cpu, minimize/maximize, with --time-limit: seconds of local search from the best leaf found when the "
             "time limit stops the search, or from the greedy leaf if it found none and no --ub was given (moves of "
             "one value to another position, on all threads)",
     .shape = OptionShape::optimise,
     .taken_by = cpu,
     .invalid = [](const S& o) {
       // Local search starts from the leaf a search stopped at its time limit found; it
       // does not run within a run that lists, stops at a target or saves checkpoints.
       if (!positive(*o.improve)) return std::string("--improve takes a number of seconds above 0");
       if (!positive(o.time_limit))
         return std::string("--improve runs after a search stopped by --time-limit: give --time-limit too");
       if (o.target || o.list || o.all_optimal)
         return std::string("--improve does not combine with --target, --list or --all-optimal");
       if (!o.checkpoint.empty() || !o.resume.empty())
         return std::string("--improve does not combine with --checkpoint or --resume");
       return std::string();
     }},
    {.flag = "--check-indices",
     .field = &S::check_indices,
     .help = "cpu: search with a checked build of the module, which reports the first array index out of range "
             "whose value counts, at its place in the spec (slower; docs/spec-language.md, section 13)",
     .shape = OptionShape::placement,
     .taken_by = cpu,
     .changes_code = true,
     .invalid = [](const S& o) {  // the checked module is the one search of this process
       return !o.checkpoint.empty() || !o.resume.empty() || launched_as_mpi_ranks()
                  ? std::string("--check-indices does not combine with --checkpoint, --resume or mpirun")
                  : std::string();
     }},
    {.flag = "--warm-start",
     .field = &S::warm_start,
     .help = "minimize/maximize without --ub: seconds of the cpu skeleton (on a GPU skeleton, while its module "
             "compiles), then as long again of local search from its best leaf, which is the search's first "
             "incumbent; the cpu skeleton, without --time-limit, starts over from it only if it did not finish "
             "(default 0.3; 0: none); on offload and ivm the local search then goes on beside the search on a quarter "
             "of the host threads, each better leaf it finds becoming the search's incumbent",
     .shape = OptionShape::placement,
     .taken_by = kRecording | offload,
     .invalid = [](const S& o) {
       return !not_negative(*o.warm_start) ? std::string("--warm-start takes a number of seconds, 0 for none")
                                           : std::string();
     }},
    // Decision and enumeration (runtime/core/decision.hpp). Taking --target stands for
    // stopping at a solution: a skeleton that takes it also searches goal = "find".
    {.flag = "--target",
     .field = &S::target,
     .help = "minimize/maximize: stop at the first permutation at least as good as this (or prove none is)",
     .shape = OptionShape::placement,
     .taken_by = kRecording},
    {.flag = "--list",
     .field = &S::list,
     .help = "count/find: write the solutions as they are found, one per line; with N, the first N (then stop)",
     .shape = OptionShape::placement,
     .taken_by = kRecording,
     .value_optional = true},
    {.flag = "--all-optimal",
     .field = &S::all_optimal,
     .help = "minimize/maximize: find the optimum, then list every optimal permutation",
     .shape = OptionShape::placement,
     .taken_by = kRecording},
    {.flag = "--list-buffer",
     .field = &S::list_buffer,
     .help = "dfs, ivm: solutions the device buffer holds at first; it grows when full (default 65536)",
     .shape = OptionShape::placement,
     .taken_by = kFrontierGpu | ivm},
    {.flag = "--split-depth",
     .field = &S::split_depth,
     .help = "levels below the root where threads split the tree",
     .shape = OptionShape::placement,
     .taken_by = cpu},
    {.flag = "--all-solutions",
     .field = &S::all_solutions,
     .help = "path problems: finish the last IDA* iteration and count every optimal path",
     .shape = OptionShape::path,
     .taken_by = cpu | ida | ida_thread},
    {.flag = "--roots",
     .field = &S::roots,
     .help = "path problems: roots of the upper tree that threads or warps share (default: chosen)",
     .shape = OptionShape::path,
     .taken_by = cpu | ida | ida_thread},
    {.flag = "--dcpu",
     .field = &S::dcpu,
     .help = "GPU: depth of the CPU search that builds the frontier (default: from the device)",
     .shape = OptionShape::placement,
     .taken_by = kFrontierGpu},
    {.flag = "--block-size",
     .field = &S::block_size,
     .help = "GPU: threads per block (default 128)",
     .taken_by = kFrontierGpu | ivm | offload,
     .changes_code = true,
     .invalid = [](const S& o) {
       // The kernels' warp reductions work on whole warps.
       return o.block_size % 32 != 0 || o.block_size < 32 || o.block_size > 1024
                  ? std::string("--block-size must be a multiple of 32 from 32 to 1024")
                  : std::string();
     }},
    {.flag = "--max-chunk",
     .field = &S::max_chunk,
     .help = "GPU: most frontier nodes per kernel launch (default: what fits)",
     .taken_by = kFrontierGpu},
    {.flag = "--dgpu",
     .field = &S::dgpu,
     .help = "cdp, rec: depth where the intermediate GPU search stops (default d_cpu + 2)",
     .taken_by = cdp | rec},
    {.flag = "--child-block-size",
     .field = &S::child_block_size,
     .help = "cdp, rec: threads per block of the final search (default 128)",
     .taken_by = cdp | rec,
     .changes_code = true},
    // rec launches one final grid from the host: nothing per block, nothing from the device.
    {.flag = "--child-grids",
     .field = &S::child_grids,
     .help = "cdp: final-search grids each block of the intermediate search launches (default 2)",
     .taken_by = cdp,
     .changes_code = true},
    {.flag = "--pending-launches",
     .field = &S::pending_launches,
     .help = "cdp: the device runtime's pending-launch buffer (default: what one chunk launches)",
     .taken_by = cdp},
    {.flag = "--offload",
     .field = &S::offload,
     .help = "offload skeleton: bound (the GPU bounds children) | branch (it branches too)",
     .values = "bound branch",
     .taken_by = offload},
    {.flag = "--pool-max",
     .field = &S::pool_max,
     .help = "offload: best-first until the pools hold this many nodes (default 1000000)",
     .taken_by = offload},
    {.flag = "--pool-min",
     .field = &S::pool_min,
     .help = "offload: then depth-first until it holds this few (default 200000)",
     .taken_by = offload},
    {.flag = "--batch",
     .field = &S::batch,
     .help = "offload: parents per batch sent to the GPU, summed over the host threads (default 32768)",
     .taken_by = offload},
    {.flag = "--in-flight",
     .field = &S::in_flight,
     .help = "offload: batches on the GPU at once per host thread (default 4)",
     .taken_by = offload},
    // A thread has no stack in shared memory to give nodes from: ida-thread does not donate.
    {.flag = "--balance",
     .field = &S::ida_balance,
     .help = "ida, ida-thread: static (lists from the last iteration's work) | dynamic (free workers take the next "
             "item; ida-thread's default) | donate (ida's default: then busy warps give nodes to idle ones)",
     .shape = OptionShape::path,
     .values = "static dynamic donate",
     .taken_by = ida | ida_thread,
     .narrowed_for = ida_thread,
     .narrowed_values = "static dynamic"},
    {.flag = "--donate-after",
     .field = &S::donate_after,
     .help = "ida --balance donate: steps a warp searches its work before it gives nodes away (default 1024)",
     .shape = OptionShape::path,
     .taken_by = ida,
     .invalid = [](const S& o) {
       // Donation is ida's default balancing: only another --balance excludes it.
       return !o.ida_balance.empty() && o.ida_balance != "donate"
                  ? std::string("--donate-after applies to the ida skeleton with --balance donate (its default)")
                  : std::string();
     }},
    {.flag = "--ida-stack",
     .field = &S::ida_stack,
     .help = "ida: entries of a warp's shared-memory stack (default: what keeps 32 warps per SM)",
     .shape = OptionShape::path,
     .taken_by = ida,
     .invalid = [](const S& o) {  // the device's limit is checked when it is open
       return o.ida_stack < kMinIdaStack
                  ? fmt::format("a stack of {} entries is too small: at least {}", o.ida_stack, kMinIdaStack)
                  : std::string();
     }},
    {.flag = "--explorers",
     .field = &S::explorers,
     .help = "ivm: explorers (default: as many as the device holds at once)",
     .taken_by = ivm},
    {.flag = "--trigger",
     .field = &S::trigger,
     .help = "ivm: empty explorers that start a work-stealing phase (default: a quarter)",
     .taken_by = ivm},
    {.flag = "--ivm-rows",
     .field = &S::ivm_rows,
     .help = "ivm: where explorers keep their rows: auto | shared | local",
     .values = "auto shared local",
     .taken_by = ivm,
     .changes_code = true},
    {.flag = "--gpus",
     .field = &S::gpus,
     .help = "ivm, ida, ida-thread: the GPUs of this host to use: all | N (the first N) | LIST (0,2); default: "
             "the first",
     .taken_by = ivm | ida | ida_thread,
     .invalid = [](const S& o) {
       return launched_as_mpi_ranks() && !o.one_process
                  ? std::string("under mpirun each rank takes one GPU, by its rank on its host: leave out --gpus "
                                "and start one rank per GPU")
                  : std::string();
     }},
    {.flag = "--checkpoint",
     .field = &S::checkpoint,
     .help = "ivm, cpu: write checkpoints to this file (and on SIGINT/SIGTERM)",
     .taken_by = cpu | ivm},
    {.flag = "--checkpoint-every",
     .field = &S::checkpoint_every,
     .help = "ivm, cpu: seconds between checkpoints (default 60)",
     .taken_by = cpu | ivm,
     .invalid = [](const S& o) {
       return !positive(*o.checkpoint_every)
                  ? std::string("--checkpoint-every must be a positive number of seconds (inf: only on a signal)")
                  : std::string();
     }},
    {.flag = "--resume",
     .field = &S::resume,
     .help = "ivm, cpu: continue the search saved in this checkpoint",
     .taken_by = cpu | ivm},
};

std::vector<std::string_view> words_of(std::string_view words) {
  std::vector<std::string_view> out;
  for (size_t at = 0; at < words.size();) {
    size_t end = std::min(words.find(' ', at), words.size());
    out.push_back(words.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

bool has_word(std::string_view words, std::string_view w) {
  for (std::string_view x : words_of(words))
    if (x == w) return true;
  return false;
}

// "a, b and c" (or "a, b or c").
template <class Names>
std::string listed(const Names& names, const char* last) {
  std::string s;
  for (size_t i = 0; i < names.size(); ++i)
    s += std::string(i == 0 ? "" : i + 1 == names.size() ? last : ", ") + std::string(names[i]);
  return s;
}

// The named values skeleton `sk` accepts of option `o` (empty: all of them).
std::string_view values_for(const SolveOption& o, const Skeleton& sk) {
  return o.narrowed_for.has(sk.id) ? o.narrowed_values : std::string_view();
}

// The skeletons that take `o` (with `value`, when it names one), as "the a and b skeletons".
std::string takers(const SolveOption& o, const std::string& value, std::string& first) {
  std::vector<std::string> names;
  for (const Skeleton& s : skeletons())
    if (takes(s, o, value)) names.emplace_back(s.name);
  first = names.empty() ? "" : names.front();
  return "the " + listed(names, " and ") + (names.size() == 1 ? " skeleton" : " skeletons");
}

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};

}  // namespace

std::span<const SolveOption> solve_option_table() { return kOptions; }

const SolveOption& solve_option(OptionField field) {
  for (const SolveOption& o : kOptions)
    if (o.field == field) return o;
  PJ_INTERNAL_ASSERT(false, "no row of the option table holds this field of SolveOptions");
  return kOptions[0];
}

std::string python_name(const SolveOption& o) {
  std::string name(o.flag.substr(o.flag.find_first_not_of('-')));
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

std::optional<std::string> given_value(const SolveOption& o, const SolveOptions& opts) {
  static const SolveOptions defaults;
  return std::visit(
      [&](auto member) -> std::optional<std::string> {
        const auto& value = opts.*member;
        using T = std::decay_t<decltype(value)>;
        if (value == defaults.*member) return std::nullopt;
        if constexpr (std::is_same_v<T, bool>) {
          return std::string();
        } else if constexpr (IsOptional<T>::value) {
          if (o.value_optional && *value == 0) return std::string();
          return fmt::format("{}", *value);
        } else {
          return fmt::format("{}", value);
        }
      },
      o.field);
}

bool takes(const Skeleton& sk, const SolveOption& o, std::string_view value) {
  if (o.taken_by.empty()) return true;
  if (!o.taken_by.has(sk.id)) return false;
  const std::string_view accepted = values_for(o, sk);
  return value.empty() || accepted.empty() || has_word(accepted, value);
}

void check_skeleton_options(const SolveOptions& opts, const Skeleton& sk, const ProblemSpec& spec) {
  const bool path = spec.goal == Goal::path;
  for (const SolveOption& o : kOptions) {
    std::optional<std::string> value = given_value(o, opts);
    if (!value) continue;
    const std::string flag(o.flag);
    const std::string shown = value->empty() ? flag : flag + " " + *value;
    const int value_col = static_cast<int>(flag.size()) + 2;
    if (o.shape == OptionShape::optimise && spec.goal != Goal::minimize && spec.goal != Goal::maximize)
      command_line_error(shown, 1,
                         flag + " applies to problems that minimize or maximize; '" + spec.name + "' is a " +
                             goal_name(spec.goal) + " problem");
    if ((o.shape == OptionShape::placement || o.shape == OptionShape::path) && (o.shape == OptionShape::path) != path)
      command_line_error(shown, 1,
                         flag +
                             (o.shape == OptionShape::path ? " applies to path problems; '"
                                                           : " applies to placement problems; '") +
                             spec.name + "' is a " + goal_name(spec.goal) + " problem");
    std::string first;
    if (!takes(sk, o)) {
      std::string who = takers(o, "", first);
      command_line_error(shown, 1, flag + " applies to " + who + "; this run uses '" + std::string(sk.name) + "'",
                         "add --skeleton " + first);
    }
    if (!o.values.empty() && !has_word(o.values, *value))
      command_line_error(shown, value_col, "unknown value '" + *value + "' of " + flag,
                         flag + " is " + listed(words_of(o.values), " or "));
    if (!takes(sk, o, *value)) {
      std::string who = takers(o, *value, first);
      command_line_error(shown, value_col,
                         shown + " applies to " + who + "; skeleton '" + std::string(sk.name) + "' takes " +
                             listed(words_of(values_for(o, sk)), " or "),
                         "add --skeleton " + first);
    }
    if (o.invalid)
      if (std::string why = o.invalid(opts); !why.empty()) command_line_error(shown, value_col, why);
  }
}

}  // namespace permjit
