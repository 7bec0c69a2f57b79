#include "dsl/source.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace permjit {

SourceFile::SourceFile(std::string p, std::string t) : path(std::move(p)), text(std::move(t)) {
  line_starts.push_back(0);
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n' && i + 1 <= text.size()) line_starts.push_back(i + 1);
  if (!text.empty() && text.back() == '\n') line_starts.pop_back();
}

std::string_view SourceFile::line(int l) const {
  if (l < 1 || l > line_count()) return {};
  size_t begin = line_starts[l - 1];
  size_t end = text.find('\n', begin);
  if (end == std::string::npos) end = text.size();
  if (end > begin && text[end - 1] == '\r') --end;
  return std::string_view(text).substr(begin, end - begin);
}

std::string unreadable_reason(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return std::strerror(EISDIR);
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return std::strerror(errno);
  ::close(fd);
  return "it could not be read";
}

SourceRef read_source(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return nullptr;
  std::ifstream in(path, std::ios::binary);
  if (!in) return nullptr;
  std::ostringstream ss;
  ss << in.rdbuf();
  return std::make_shared<SourceFile>(path, ss.str());
}

SourceRef make_source(std::string path, std::string text) {
  return std::make_shared<SourceFile>(std::move(path), std::move(text));
}

}  // namespace permjit
