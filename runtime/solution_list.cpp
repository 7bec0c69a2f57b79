#include "runtime/solution_list.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fmt/core.h>

#include "dsl/diagnostics.hpp"

namespace permjit {

SolutionList::SolutionList(const std::string& out, ListFormat format, unsigned long long limit, bool with_objective)
    : shown_(out.empty() ? "stdout" : out), format_(format), limit_(limit), with_objective_(with_objective) {
  if (out.empty()) {
    file_ = stdout;
  } else {
    file_ = std::fopen(out.c_str(), "w");
    if (!file_) command_line_error("--out " + out, 7, "cannot write '" + out + "': " + std::strerror(errno));
    owned_ = true;
  }
  last_flush_ = std::chrono::steady_clock::now();
}

SolutionList::SolutionList(Sink sink, unsigned long long limit, bool with_objective)
    : sink_(std::move(sink)), shown_("sink"), format_(ListFormat::lines), limit_(limit), with_objective_(with_objective) {}

SolutionList::~SolutionList() {
  if (owned_) std::fclose(file_);
  else if (file_) std::fflush(file_);
}

bool SolutionList::take(std::span<const int> perm, long long objective) {
  std::lock_guard<std::mutex> g(lock_);
  if (limit_ > 0 && taken_ >= limit_) return false;
  if (sink_) {
    if (closed_ || !sink_(perm, objective)) {
      closed_ = true;
      return false;
    }
    ++taken_;
    return true;
  }
  ++taken_;
  line_.clear();
  if (format_ == ListFormat::json) {
    line_ += "{\"permutation\": [";
    for (size_t i = 0; i < perm.size(); ++i) line_ += fmt::format("{}{}", i ? ", " : "", perm[i]);
    line_ += "]";
    if (with_objective_) line_ += fmt::format(", \"objective\": {}", objective);
    line_ += "}\n";
  } else {
    for (size_t i = 0; i < perm.size(); ++i) line_ += fmt::format("{}{}", i ? " " : "", perm[i]);
    line_ += "\n";
  }
  std::fwrite(line_.data(), 1, line_.size(), file_);
  // Seen as they are found (a reader of the file or a pipe), without a flush per line.
  auto now = std::chrono::steady_clock::now();
  if (now - last_flush_ > std::chrono::milliseconds(100)) {
    std::fflush(file_);
    last_flush_ = now;
  }
  return true;
}

unsigned long long SolutionList::taken() const {
  std::lock_guard<std::mutex> g(lock_);
  return taken_;
}

void SolutionList::finish() {
  std::lock_guard<std::mutex> g(lock_);
  if (!file_) return;
  if (std::fflush(file_) != 0 || std::ferror(file_))
    throw std::runtime_error("writing the solutions to " + shown_ + " failed: " + std::strerror(errno));
}

}  // namespace permjit
