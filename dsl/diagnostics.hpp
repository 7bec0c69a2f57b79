// Two kinds of error, never mixed:
//  - a user's mistake (in a spec, an instance or a command line) becomes a Diagnostic
//    with its place, collected in Diagnostics so that `check` can report all of them;
//  - a broken invariant of ours is an InternalError (PJ_INTERNAL_ASSERT).
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "dsl/source.hpp"

namespace permjit {

struct Diagnostic {
  enum class Kind { error, note };
  Kind kind = Kind::error;
  Loc loc;
  std::string message;
  std::string hint;  // printed on its own line after the caret, may be empty
};

class Diagnostics {
 public:
  void error(const Loc& loc, std::string message, std::string hint = {});
  void note(const Loc& loc, std::string message);
  bool has_errors() const { return errors_ > 0; }
  int error_count() const { return errors_; }
  const std::vector<Diagnostic>& all() const { return list_; }
  // `path:line:col: error: message`, the line, a caret under the column, the hint.
  std::string render() const;

 private:
  std::vector<Diagnostic> list_;
  int errors_ = 0;
};

std::string render(const Diagnostic& d);

// Thrown to stop a stage that cannot go on after user errors; the diagnostics were
// already recorded.
struct UserErrors : std::runtime_error {
  Diagnostics diags;
  explicit UserErrors(Diagnostics d) : std::runtime_error(d.render()), diags(std::move(d)) {}
};

// A mistake on the command line: `shown` is the part of it the error points into
// (a source named "<command line>"), `col` the column in it.
[[noreturn]] void command_line_error(const std::string& shown, int col, const std::string& message,
                                     const std::string& hint = {});

struct InternalError : std::logic_error {
  using std::logic_error::logic_error;
};

[[noreturn]] void internal_error(const char* file, int line, const std::string& what);

}  // namespace permjit

#define PJ_INTERNAL_ASSERT(cond, what)                                        \
  do {                                                                        \
    if (!(cond)) ::permjit::internal_error(__FILE__, __LINE__, (what));       \
  } while (0)
