// A text buffer for generated C++ that knows its own line numbers, so that it can
// switch `#line` between the spec (user code) and the generated file (our code).
#pragma once
#include <string>

#include "dsl/source.hpp"

namespace permjit {

class CodeWriter {
 public:
  explicit CodeWriter(std::string generated_name) : name_(std::move(generated_name)) {}

  void line(const std::string& text);         // one line at the current indentation
  void raw(const std::string& text);          // text as is (may hold several lines)
  void indent() { depth_ += 2; }
  void dedent() { depth_ -= 2; }
  // The next lines come from this place of the spec.
  void user_place(const Loc& loc);
  // The next lines are ours again.
  void generated_place();
  const std::string& text() const { return text_; }
  const std::string& generated_name() const { return name_; }

 private:
  std::string name_;
  std::string text_;
  int lines_ = 0;  // lines written so far
  int depth_ = 0;
  bool in_user_ = false;
  Loc user_;             // the spec place the next lines stand for
  int mapped_next_ = -1; // the line number the compiler gives the next line
};

std::string quote_path(const std::string& path);

}  // namespace permjit
