#include "runtime/device/gpu_list.hpp"

#include <algorithm>
#include <cctype>

#include "dsl/diagnostics.hpp"

namespace permjit {

namespace {
// The number at text[at..), or -1 when it is not one; `at` moves past it.
long long number_at(const std::string& text, size_t& at) {
  const size_t start = at;
  long long v = 0;
  while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])) && v < 1000000)
    v = v * 10 + (text[at++] - '0');
  return at == start ? -1 : v;
}
}  // namespace

std::vector<int> parse_gpu_list(const std::string& text, int count) {
  if (text.empty()) return {0};
  const std::string shown = "--gpus " + text;
  constexpr int kValueColumn = 8;  // where the value starts in `shown`
  const std::string have = "this host has " + std::to_string(count) + (count == 1 ? " GPU" : " GPUs");
  std::vector<int> out;
  if (text == "all") {
    for (int i = 0; i < count; ++i) out.push_back(i);
    return out;
  }
  size_t at = 0;
  const bool list = text.find(',') != std::string::npos;
  while (true) {
    const size_t start = at;
    const long long v = number_at(text, at);
    if (v < 0 || (at < text.size() && text[at] != ','))
      command_line_error(shown, kValueColumn + static_cast<int>(at), "--gpus takes all, a number of GPUs or a list of GPU numbers such as 0,1");
    if (!list) {
      if (v < 1 || v > count)
        command_line_error(shown, kValueColumn, "--gpus " + text + ": " + have,
                           v < 1 ? "give at least 1" : "give at most " + std::to_string(count) + ", or all");
      for (int i = 0; i < v; ++i) out.push_back(i);
      return out;
    }
    if (v >= count)
      command_line_error(shown, kValueColumn + static_cast<int>(start),
                         "there is no GPU " + std::to_string(v) + ": " + have + ", numbered from 0");
    out.push_back(static_cast<int>(v));
    if (at == text.size()) return out;
    ++at;  // the comma
  }
}

}  // namespace permjit
