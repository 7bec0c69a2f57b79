// What the CLI's emit and check commands print, captured as text for Python: std::cout
// and std::cerr are redirected while one runs. `emit --stage sass` runs cuobjdump, which
// writes to file descriptor 1 itself; with `descriptors` that is captured too.
#pragma once
#include <cstdio>
#include <sstream>
#include <string>

namespace permjit::py {

class CapturedOutput {
 public:
  explicit CapturedOutput(bool descriptors = false);
  ~CapturedOutput();
  CapturedOutput(const CapturedOutput&) = delete;
  CapturedOutput& operator=(const CapturedOutput&) = delete;
  // Ends the capture (once) and returns what was written to stdout and stderr.
  std::string out();
  std::string err() const { return err_.str(); }

 private:
  void restore();
  std::ostringstream out_, err_;
  std::streambuf *old_out_ = nullptr, *old_err_ = nullptr;
  int saved_fd_ = -1;
  std::FILE* file_ = nullptr;  // where fd 1 went
  std::string fd_text_;
  bool restored_ = false;
};

}  // namespace permjit::py
