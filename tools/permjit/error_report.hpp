// How `permjit` ends on an error. The text always goes to stderr; under `--json` stdout
// also gets one error object, so that a script reads an answer on stdout whatever
// happened (docs/reliability.md, "What a script can rely on"):
//   {"error": {"message", "file", "line", "column", "hint"}, "errors": [...], "exit_status": N}
// "error" is the first error; "errors" all of them, in order. A place not known (an
// error of the compiler, a signal) has null file, line and column.
#pragma once
#include <string>

#include "dsl/diagnostics.hpp"

namespace permjit {

// Exit statuses a script can rely on.
enum ExitStatus : int {
  kExitOk = 0,
  kExitUserError = 1,     // the spec, the instance, the command line, a checkpoint
  kExitOtherError = 2,    // the generated code did not compile, a device failed, the host ran out of something
  kExitInternalError = 3  // a bug of permjit
  // 128 + N: stopped by signal N (SIGINT 130, SIGTERM 143), the result printed
};

// Prints the errors and the count; returns kExitUserError.
int report_user_errors(const UserErrors& e, bool json);
// An error with no place in the user's input: `text` is printed as it is to stderr,
// `message` is what the JSON object carries.
int report_failure(const std::string& text, const std::string& message, int status, bool json);

}  // namespace permjit
