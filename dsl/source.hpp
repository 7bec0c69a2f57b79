// Source files and locations. Every spec node and expression node keeps a Loc so that
// each diagnostic can name `path:line:col` and show the offending line.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace permjit {

struct SourceFile {
  std::string path;  // as the user named it
  std::string text;
  std::vector<size_t> line_starts;  // offset of each line's first character

  SourceFile(std::string path, std::string text);
  int line_count() const { return static_cast<int>(line_starts.size()); }
  std::string_view line(int line_1based) const;  // without the newline
};

using SourceRef = std::shared_ptr<const SourceFile>;

// Reads a whole file; returns nullptr when it cannot be read (a directory cannot: an
// ifstream opens one and reads it as empty).
SourceRef read_source(const std::string& path);
// Why read_source(path) returns nullptr, in the OS's words ("No such file or directory").
std::string unreadable_reason(const std::string& path);
SourceRef make_source(std::string path, std::string text);

// A place in a source: 1-based line and column (columns count bytes).
struct Loc {
  SourceRef file;
  int line = 0;
  int col = 0;
  bool known() const { return file && line > 0; }
};

}  // namespace permjit
