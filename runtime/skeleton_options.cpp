#include "runtime/skeleton_options.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "dsl/diagnostics.hpp"
#include "runtime/distributed/mpi_launch.hpp"
#include "runtime/skeletons.hpp"
#include "runtime/solve.hpp"

namespace permjit {

namespace {

// Which specs an option applies to: any, placement problems, path problems, or placement
// problems that minimise or maximise.
enum class Shape { any, placement, path, optimise };

struct OptionInfo {
  SkeletonOption id;
  std::string_view flag;
  Shape shape = Shape::any;
  std::string_view values = {};  // an option with named values: all of them
  // The value as typed, when the option was given.
  std::optional<std::string> (*given)(const SolveOptions&);
  // Why the value is out of range, or empty.
  std::string (*invalid)(const SolveOptions&) = nullptr;
};

// Seconds are checked with `!(x > 0)` rather than `x <= 0`: NaN compares false either
// way, and a NaN limit was taken as no limit. `inf` and values past
// pj::kForeverSeconds are no limit (templates/host_deadline.hpp).
bool positive(double seconds) { return seconds > 0; }
bool not_negative(double seconds) { return seconds >= 0; }

template <class T>
std::optional<std::string> if_set(bool set, const T& value) {
  if (!set) return std::nullopt;
  return fmt::format("{}", value);
}

// In the order of `solve --help`; the first mistake found is the one reported.
const OptionInfo kOptions[] = {
    {SkeletonOption::time_limit, "--time-limit", Shape::placement, {},
     [](const SolveOptions& o) { return if_set(o.time_limit != 0, o.time_limit); },
     [](const SolveOptions& o) {
       return !positive(o.time_limit) ? std::string("--time-limit takes a number of seconds above 0 (inf: no limit)")
                                      : std::string();
     }},
    {SkeletonOption::improve, "--improve", Shape::optimise, {},
     [](const SolveOptions& o) { return if_set(o.improve.has_value(), o.improve.value_or(0)); },
     [](const SolveOptions& o) {
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
    {SkeletonOption::check_indices, "--check-indices", Shape::placement, {},
     [](const SolveOptions& o) { return o.check_indices ? std::optional<std::string>("") : std::nullopt; },
     [](const SolveOptions& o) {  // the checked module is the one search of this process
       return !o.checkpoint.empty() || !o.resume.empty() || launched_as_mpi_ranks()
                  ? std::string("--check-indices does not combine with --checkpoint, --resume or mpirun")
                  : std::string();
     }},
    {SkeletonOption::warm_start, "--warm-start", Shape::placement, {},
     [](const SolveOptions& o) { return if_set(o.warm_start.has_value(), o.warm_start.value_or(0)); },
     [](const SolveOptions& o) {
       return !not_negative(*o.warm_start) ? std::string("--warm-start takes a number of seconds, 0 for none")
                                           : std::string();
     }},
    {SkeletonOption::target, "--target", Shape::placement, {},
     [](const SolveOptions& o) { return if_set(o.target.has_value(), o.target.value_or(0)); }},
    {SkeletonOption::list, "--list", Shape::placement, {},
     [](const SolveOptions& o) {  // --list alone lists every solution
       return o.list == 0ull ? std::optional<std::string>("") : if_set(o.list.has_value(), o.list.value_or(0));
     }},
    {SkeletonOption::all_optimal, "--all-optimal", Shape::placement, {},
     [](const SolveOptions& o) { return o.all_optimal ? std::optional<std::string>("") : std::nullopt; }},
    {SkeletonOption::list_buffer, "--list-buffer", Shape::placement, {},
     [](const SolveOptions& o) { return if_set(o.list_buffer != 0, o.list_buffer); }},
    {SkeletonOption::split_depth, "--split-depth", Shape::placement, {},
     [](const SolveOptions& o) { return if_set(o.split_depth != 0, o.split_depth); }},
    {SkeletonOption::all_solutions, "--all-solutions", Shape::path, {},
     [](const SolveOptions& o) { return o.all_solutions ? std::optional<std::string>("") : std::nullopt; }},
    {SkeletonOption::roots, "--roots", Shape::path, {},
     [](const SolveOptions& o) { return if_set(o.roots != 0, o.roots); }},
    {SkeletonOption::dcpu, "--dcpu", Shape::placement, {}, [](const SolveOptions& o) { return if_set(o.dcpu != 0, o.dcpu); }},
    {SkeletonOption::block_size, "--block-size", Shape::any, {},
     [](const SolveOptions& o) { return if_set(o.block_size != 0, o.block_size); },
     [](const SolveOptions& o) {
       // The kernels' warp reductions work on whole warps.
       return o.block_size % 32 != 0 || o.block_size < 32 || o.block_size > 1024
                  ? std::string("--block-size must be a multiple of 32 from 32 to 1024")
                  : std::string();
     }},
    {SkeletonOption::max_chunk, "--max-chunk", Shape::any, {},
     [](const SolveOptions& o) { return if_set(o.max_chunk != 0, o.max_chunk); }},
    {SkeletonOption::dgpu, "--dgpu", Shape::any, {}, [](const SolveOptions& o) { return if_set(o.dgpu != 0, o.dgpu); }},
    {SkeletonOption::child_block_size, "--child-block-size", Shape::any, {},
     [](const SolveOptions& o) { return if_set(o.child_block_size != 0, o.child_block_size); }},
    {SkeletonOption::child_grids, "--child-grids", Shape::any, {},
     [](const SolveOptions& o) { return if_set(o.child_grids != 0, o.child_grids); }},
    {SkeletonOption::pending_launches, "--pending-launches", Shape::any, {},
     [](const SolveOptions& o) { return if_set(o.pending_launches != 0, o.pending_launches); }},
    {SkeletonOption::offload, "--offload", Shape::any, "bound branch",
     [](const SolveOptions& o) { return if_set(!o.offload.empty(), o.offload); }},
    {SkeletonOption::pool_max, "--pool-max", Shape::any, {},
     [](const SolveOptions& o) { return if_set(o.pool_max != 0, o.pool_max); }},
    {SkeletonOption::pool_min, "--pool-min", Shape::any, {},
     [](const SolveOptions& o) { return if_set(o.pool_min != 0, o.pool_min); }},
    {SkeletonOption::batch, "--batch", Shape::any, {}, [](const SolveOptions& o) { return if_set(o.batch != 0, o.batch); }},
    {SkeletonOption::in_flight, "--in-flight", Shape::any, {},
     [](const SolveOptions& o) { return if_set(o.in_flight != 0, o.in_flight); }},
    {SkeletonOption::balance, "--balance", Shape::path, "static dynamic donate",
     [](const SolveOptions& o) { return if_set(!o.ida_balance.empty(), o.ida_balance); }},
    {SkeletonOption::donate_after, "--donate-after", Shape::path, {},
     [](const SolveOptions& o) { return if_set(o.donate_after.has_value(), o.donate_after.value_or(0)); },
     [](const SolveOptions& o) {
       // Donation is ida's default balancing: only another --balance excludes it.
       return !o.ida_balance.empty() && o.ida_balance != "donate"
                  ? std::string("--donate-after applies to the ida skeleton with --balance donate (its default)")
                  : std::string();
     }},
    {SkeletonOption::ida_stack, "--ida-stack", Shape::path, {},
     [](const SolveOptions& o) { return if_set(o.ida_stack != 0, o.ida_stack); },
     [](const SolveOptions& o) {  // the device's limit is checked when it is open
       return o.ida_stack < kMinIdaStack ? fmt::format("a stack of {} entries is too small: at least {}", o.ida_stack,
                                                       kMinIdaStack)
                                         : std::string();
     }},
    {SkeletonOption::explorers, "--explorers", Shape::any, {},
     [](const SolveOptions& o) { return if_set(o.explorers != 0, o.explorers); }},
    {SkeletonOption::trigger, "--trigger", Shape::any, {},
     [](const SolveOptions& o) { return if_set(o.trigger != 0, o.trigger); }},
    {SkeletonOption::ivm_rows, "--ivm-rows", Shape::any, "auto shared local",
     [](const SolveOptions& o) { return if_set(!o.ivm_rows.empty(), o.ivm_rows); }},
    {SkeletonOption::gpus, "--gpus", Shape::any, {},
     [](const SolveOptions& o) { return if_set(!o.gpus.empty(), o.gpus); },
     [](const SolveOptions& o) {
       return launched_as_mpi_ranks() && !o.one_process
                  ? std::string("under mpirun each rank takes one GPU, by its rank on its host: leave out --gpus "
                                "and start one rank per GPU")
                  : std::string();
     }},
    {SkeletonOption::checkpoint, "--checkpoint", Shape::any, {},
     [](const SolveOptions& o) { return if_set(!o.checkpoint.empty(), o.checkpoint); }},
    {SkeletonOption::checkpoint_every, "--checkpoint-every", Shape::any, {},
     [](const SolveOptions& o) { return if_set(o.checkpoint_every.has_value(), o.checkpoint_every.value_or(0)); },
     [](const SolveOptions& o) {
       return !positive(*o.checkpoint_every)
                  ? std::string("--checkpoint-every must be a positive number of seconds (inf: only on a signal)")
                  : std::string();
     }},
    {SkeletonOption::resume, "--resume", Shape::any, {},
     [](const SolveOptions& o) { return if_set(!o.resume.empty(), o.resume); }},
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

// The skeletons that take `o` (with `value`, when it names one), as "the a and b skeletons".
std::string takers(SkeletonOption o, const std::string& value, std::string& first) {
  std::vector<std::string> names;
  for (const Skeleton& s : skeletons()) {
    const Takes* t = s.find_option(o);
    if (t && (value.empty() || t->values.empty() || has_word(t->values, value))) names.emplace_back(s.name);
  }
  first = names.empty() ? "" : names.front();
  return "the " + listed(names, " and ") + (names.size() == 1 ? " skeleton" : " skeletons");
}

}  // namespace

void check_skeleton_options(const SolveOptions& opts, const Skeleton& sk, const ProblemSpec& spec) {
  const bool path = spec.goal == Goal::path;
  for (const OptionInfo& o : kOptions) {
    std::optional<std::string> value = o.given(opts);
    if (!value) continue;
    const std::string flag(o.flag);
    const std::string shown = value->empty() ? flag : flag + " " + *value;
    const int value_col = static_cast<int>(flag.size()) + 2;
    if (o.shape == Shape::optimise && spec.goal != Goal::minimize && spec.goal != Goal::maximize)
      command_line_error(shown, 1,
             flag + " applies to problems that minimize or maximize; '" + spec.name + "' is a " +
                 goal_name(spec.goal) + " problem");
    if ((o.shape == Shape::placement || o.shape == Shape::path) && (o.shape == Shape::path) != path)
      command_line_error(shown, 1,
             flag + (o.shape == Shape::path ? " applies to path problems; '" : " applies to placement problems; '") +
                 spec.name + "' is a " + goal_name(spec.goal) + " problem");
    std::string first;
    const Takes* t = sk.find_option(o.id);
    if (!t) {
      std::string who = takers(o.id, "", first);
      command_line_error(shown, 1, flag + " applies to " + who + "; this run uses '" + std::string(sk.name) + "'",
             "add --skeleton " + first);
    }
    if (!o.values.empty() && !has_word(o.values, *value))
      command_line_error(shown, value_col, "unknown value '" + *value + "' of " + flag,
             flag + " is " + listed(words_of(o.values), " or "));
    if (!t->values.empty() && !has_word(t->values, *value)) {
      std::string who = takers(o.id, *value, first);
      command_line_error(shown, value_col,
             shown + " applies to " + who + "; skeleton '" + std::string(sk.name) + "' takes " +
                 listed(words_of(t->values), " or "),
             "add --skeleton " + first);
    }
    if (o.invalid)
      if (std::string why = o.invalid(opts); !why.empty()) command_line_error(shown, value_col, why);
  }
}

}  // namespace permjit
