#include "captured_output.hpp"

#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace permjit::py {

CapturedOutput::CapturedOutput(bool descriptors) {
  old_out_ = std::cout.rdbuf(out_.rdbuf());
  old_err_ = std::cerr.rdbuf(err_.rdbuf());
  if (descriptors) {
    std::fflush(stdout);
    file_ = std::tmpfile();
    saved_fd_ = file_ ? dup(STDOUT_FILENO) : -1;
    if (saved_fd_ >= 0) dup2(fileno(file_), STDOUT_FILENO);
  }
}

void CapturedOutput::restore() {
  if (restored_) return;
  restored_ = true;
  std::cout.rdbuf(old_out_);
  std::cerr.rdbuf(old_err_);
  if (saved_fd_ >= 0) {
    std::fflush(stdout);
    dup2(saved_fd_, STDOUT_FILENO);
    close(saved_fd_);
    std::rewind(file_);
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, file_)) > 0) fd_text_.append(buf, n);
  }
  if (file_) std::fclose(file_);
  file_ = nullptr;
}

CapturedOutput::~CapturedOutput() { restore(); }

std::string CapturedOutput::out() {
  restore();
  return out_.str() + fd_text_;
}

}  // namespace permjit::py
