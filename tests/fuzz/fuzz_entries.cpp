#include "tests/fuzz/fuzz_entries.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "dsl/diagnostics.hpp"
#include "dsl/load_spec.hpp"
#include "generator/generate.hpp"
#include "runtime/core/record_list.hpp"
#include "runtime/distributed/range_checkpoint.hpp"
#include "runtime/ivm/ivm_checkpoint.hpp"
#include "runtime/solve.hpp"
#include "tests/test_paths.hpp"
#include "tools/permjit/cli.hpp"

namespace permjit::fuzz {

namespace {
namespace fs = std::filesystem;

// The loader reads files by name: each process writes its inputs into its own folder,
// removed when the process ends.
class Scratch {
 public:
  Scratch() {
    std::string pattern = (fs::temp_directory_path() / "permjit-fuzz-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot make a scratch folder");
    dir_ = pattern;
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string write(const char* name, std::string_view text) const {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(text.data(), static_cast<std::streamsize>(text.size()));
    return path;
  }

 private:
  fs::path dir_;
};

const Scratch& scratch() {
  static const Scratch s;
  return s;
}

// The line `first` of `input` and what follows it.
std::pair<std::string_view, std::string_view> first_line(std::string_view input) {
  const size_t end = input.find('\n');
  if (end == std::string_view::npos) return {input, {}};
  return {input.substr(0, end), input.substr(end + 1)};
}

// Loads as `permjit check` does, and generates the source when every size is known.
void check(LoadOptions opts) {
  try {
    ProblemSpec spec = load_spec(opts);
    if (spec.size > 0) generate_problem(spec);
  } catch (const UserErrors&) {
    // refused with its place: the expected answer to a wrong input
  }
}
}  // namespace

void spec_to_source(std::string_view input) {
  constexpr std::string_view kSplit = "\n#@instance\n";
  const size_t split = input.find(kSplit);
  LoadOptions opts;
  opts.spec_path = scratch().write("spec.toml", input.substr(0, split));
  opts.need_instance = split != std::string_view::npos;
  if (opts.need_instance) opts.instance_path = scratch().write("instance", input.substr(split + kSplit.size()));
  check(opts);
}

void instance_reader(std::string_view input) {
  const auto [name, text] = first_line(input);
  static const std::vector<std::string_view> kSpecs = {"atsp", "flowshop", "qap", "puzzle15"};
  if (std::find(kSpecs.begin(), kSpecs.end(), name) == kSpecs.end()) return;
  LoadOptions opts;
  opts.spec_path = test::problem(std::string(name) + ".toml");
  opts.instance_path = scratch().write("instance", text);
  try {
    load_spec(opts);
  } catch (const UserErrors&) {
  }
}

void record_list(std::string_view input) {
  const auto [list, text] = first_line(input);
  try {
    parse_record_list(std::string(list), records_of(std::string(text)), "instance.txt");
  } catch (const UserErrors&) {
  }
}

void ivm_checkpoint(std::string_view input) {
  const std::string file(input);
  auto read = [](const std::string& bytes) {
    try {
      IvmCheckpoint c = parse_checkpoint(bytes, "fuzz.ckpt");
      resume_mismatch(c.id, IvmRunIdentity{});
    } catch (const std::runtime_error&) {
      // refused as not a checkpoint, damaged, or of another format
    }
  };
  read(file);
  // The same with the checksum line's value made right, if it has one and a data part.
  const size_t line = file.find("\nchecksum ");
  const size_t data = file.find("\n\n", line == std::string::npos ? 0 : line);
  if (line == std::string::npos || data == std::string::npos) return;
  const size_t value = line + 10, value_end = file.find('\n', value);
  const std::string sum = checkpoint_checksum(std::string_view(file).substr(0, line + 1),
                                              std::string_view(file).substr(data + 2));
  read(file.substr(0, value) + sum + file.substr(value_end));
}

void range_checkpoint(std::string_view input) {
  const std::string file(input);
  auto read = [](const std::string& bytes) {
    try {
      RangeCheckpoint c = read_range_checkpoint(scratch().write("range.ckpt", bytes));
      range_resume_mismatch(c.id, RangeRunIdentity{});
    } catch (const std::runtime_error&) {
      // refused as not a checkpoint, or damaged
    }
  };
  read(file);
  // The checksum covers every byte before its line.
  const size_t line = file.rfind("checksum ");
  if (line == std::string::npos) return;
  read(file.substr(0, line) + "checksum " + checkpoint_checksum(std::string_view(file).substr(0, line), "") + "\n");
}

void cli_options(std::string_view input) {
  std::vector<std::string> args = {"solve", test::problem("nqueens.toml"), "--param", "n=6"};
  constexpr size_t kMostArguments = 64;
  for (size_t at = 0; at <= input.size() && args.size() < kMostArguments;) {
    const size_t end = std::min(input.find('\n', at), input.size());
    args.emplace_back(input.substr(at, end - at));
    at = end + 1;
  }
  Cli cli;
  try {
    cli.parse(args);
    // --records searches as it goes; the checks before its first search are prepare_solve's too.
    if (!*cli.solve.cmd || cli.solve.cmd->count("--records")) return;
    settle_solve_command(cli.solve, cli.json || asks_for_json(args));
    const PreparedSolve p = prepare_solve(cli.solve.opts);
    require_runnable(*p.skeleton, cli.solve.opts);
  } catch (const UserErrors&) {
    // refused with its place
  } catch (const CLI::Success&) {
    // --help: the program prints it and exits 0
  }
}

const std::vector<Entry>& entries() {
  static const std::vector<Entry> list = {
      {"spec_to_source", spec_to_source},
      {"instance_reader", instance_reader},
      {"record_list", record_list},
      {"ivm_checkpoint", ivm_checkpoint},
      {"range_checkpoint", range_checkpoint},
      {"cli_options", cli_options},
  };
  return list;
}

}  // namespace permjit::fuzz
