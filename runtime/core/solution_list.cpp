#include "runtime/core/solution_list.hpp"

#include <unistd.h>

#include <cerrno>
#include <filesystem>
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
    // Whether it can be written, without touching it: the file if it exists, else its folder.
    out_ = out;
    std::error_code ec;
    const bool exists = std::filesystem::exists(out, ec);
    std::string folder = std::filesystem::path(out).parent_path().string();
    if (folder.empty()) folder = ".";
    if (exists ? std::filesystem::is_directory(out, ec) : false)
      command_line_error("--out " + out, 7, "cannot write '" + out + "': " + std::strerror(EISDIR));
    if (::access(exists ? out.c_str() : folder.c_str(), exists ? W_OK : W_OK | X_OK) != 0)
      command_line_error("--out " + out, 7, "cannot write '" + out + "': " + std::strerror(errno));
  }
  last_flush_ = std::chrono::steady_clock::now();
}

SolutionList::SolutionList(Sink sink, unsigned long long limit, bool with_objective)
    : sink_(std::move(sink)), shown_("sink"), format_(ListFormat::lines), limit_(limit), with_objective_(with_objective) {}

bool SolutionList::open() {
  if (file_ || sink_) return true;
  if (!open_error_.empty()) return false;
  file_ = std::fopen(out_.c_str(), "w");
  if (!file_) {
    open_error_ = "cannot write the solutions to " + out_ + ": " + std::strerror(errno);
    return false;
  }
  owned_ = true;
  return true;
}

SolutionList::~SolutionList() {
  if (!file_) return;
  if (owned_) std::fclose(file_);
  else if (file_) std::fflush(file_);
}

bool SolutionList::take(std::span<const int> perm, long long objective) {
  std::lock_guard<std::mutex> g(lock_);
  if (!expansion_) return take_one(perm, objective);
  // The found solution first: refused, the search stops as it would without a symmetry.
  // Images past the limit are left out, and the list says it was cut (truncated()).
  const std::vector<std::vector<int>> images = expansion_(perm);
  for (size_t i = 0; i < images.size(); ++i)
    if (!take_one(images[i], objective)) {
      if (i == 0) return false;
      truncated_ = true;
      break;
    }
  return true;
}

bool SolutionList::truncated() const {
  std::lock_guard<std::mutex> g(lock_);
  return truncated_;
}

bool SolutionList::take_one(std::span<const int> perm, long long objective) {
  if (limit_ > 0 && taken_ >= limit_) return false;
  if (sink_) {
    if (closed_ || !sink_(perm, objective)) {
      closed_ = true;
      return false;
    }
    ++taken_;
    return true;
  }
  if (!open()) return false;  // the search stops; finish() reports why
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
  if (sink_) return;
  if (!open()) throw std::runtime_error(open_error_);
  if (std::fflush(file_) != 0 || std::ferror(file_))
    throw std::runtime_error("writing the solutions to " + shown_ + " failed: " + std::strerror(errno));
}

}  // namespace permjit
