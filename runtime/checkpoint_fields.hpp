// What the checkpoint formats share (runtime/ivm_checkpoint.cpp, range_checkpoint.cpp):
// header lines "key value", written one value per line and read back with every
// missing key or malformed number reported as damage, naming the file.
#pragma once
#include <map>
#include <stdexcept>
#include <string>

namespace permjit {

// A header value on one line: a newline in it (a path) would end the line early.
std::string one_line(const std::string& value);

class CheckpointFields {
 public:
  explicit CheckpointFields(std::string path) : path_(std::move(path)) {}
  // One header line, "key value" (a key alone has the empty value).
  void add_line(const std::string& line);
  const std::string& text(const std::string& key) const;
  unsigned long long number(const std::string& key) const;
  long long integer(const std::string& key) const;
  double real(const std::string& key) const;
  // "PATH: damaged checkpoint: why".
  std::runtime_error damaged(const std::string& why) const;

 private:
  std::string path_;
  std::map<std::string, std::string> kv_;
};

}  // namespace permjit
