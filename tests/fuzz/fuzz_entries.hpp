// What each fuzz harness does with one input. The libFuzzer harnesses (built with
// clang, -DPERMJIT_FUZZ=ON) and the corpus replay test of the normal build call the
// same functions, so that every input the fuzzer found stays checked without clang.
//
// Each function returns for an input a user may give: it is accepted or refused with a
// user error (UserErrors, or the checkpoint reader's std::runtime_error). Anything else
// escaping (InternalError, another exception) or a sanitizer report is a finding.
#pragma once
#include <string_view>
#include <vector>

namespace permjit::fuzz {

// A spec (TOML), optionally followed by a line `#@instance` and an instance file's
// text, through load_spec and generate_problem, as `permjit check` does.
void spec_to_source(std::string_view input);
// First line: a spec of problems/ (atsp, flowshop, qap, puzzle15); the rest: an instance
// file for it (TSPLIB or layout), read by load_spec.
void instance_reader(std::string_view input);
// First line: a `--records` list; the rest: the one-instance-per-line file.
void record_list(std::string_view input);
// An ivm checkpoint file, read as it is and again with its checksum made right, so
// that the fields behind the checksum are reached too.
void ivm_checkpoint(std::string_view input);
// A cpu skeleton's checkpoint (runtime/distributed/range_checkpoint.hpp), read as it is and again
// with its checksum made right.
void range_checkpoint(std::string_view input);

// `permjit solve problems/nqueens.toml --param n=6` followed by the input's lines, one
// argument each: parsed by the program's own command line (tools/permjit/cli.hpp),
// then every check a solve makes before its search (prepare_solve, require_runnable).
void cli_options(std::string_view input);

struct Entry {
  const char* name;  // the harness's name, and its folder under tests/fuzz/corpus/
  void (*run)(std::string_view);
};
const std::vector<Entry>& entries();

}  // namespace permjit::fuzz
