#include "runtime/core/record_list.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "dsl/diagnostics.hpp"

namespace permjit {

namespace {
constexpr const char* kShown = "--records ";

class ListReader {
 public:
  ListReader(const std::string& list, const std::vector<int>& available, const std::string& file)
      : list_(list), available_(available), file_(file), src_(make_source("<command line>", kShown + list)) {}

  std::vector<int> read() {
    if (list_ == "all") return available_;
    if (list_.empty()) fail(0, "--records needs a list of records", "e.g. --records all, 7, 1-100 or 3,7,9-12");
    size_t at = 0;
    while (true) {
      size_t end = list_.find(',', at);
      if (end == std::string::npos) end = list_.size();
      item(at, end);
      if (end == list_.size()) break;
      at = end + 1;
    }
    return out_;
  }

 private:
  const std::string& list_;
  const std::vector<int>& available_;
  const std::string& file_;
  SourceRef src_;
  std::vector<int> out_;
  std::set<int> seen_;

  [[noreturn]] void fail(size_t at, const std::string& msg, const std::string& hint = "") {
    Diagnostics d;
    d.error(Loc{src_, 1, static_cast<int>(std::string(kShown).size() + at) + 1}, msg, hint);
    throw UserErrors(std::move(d));
  }

  // A record number of list_[at, end): digits only, from 1.
  int number(size_t at, size_t end) {
    std::string s = list_.substr(at, end - at);
    if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); }))
      fail(at, "'" + s + "' is not a record number", "records are lines of the instance file, numbered from 1: 7, 1-100, all");
    int n = std::stoi(s);
    if (n < 1) fail(at, "records are numbered from 1");
    return n;
  }

  void item(size_t at, size_t end) {
    size_t dash = list_.find('-', at);
    int lo, hi;
    if (dash != std::string::npos && dash < end) {
      lo = number(at, dash);
      hi = number(dash + 1, end);
      if (hi < lo) fail(at, "the range " + list_.substr(at, end - at) + " is empty", "write the smaller record first");
    } else {
      lo = hi = number(at, end);
    }
    for (int k = lo; k <= hi; ++k) {
      if (!std::binary_search(available_.begin(), available_.end(), k))
        fail(at, "the instance file '" + file_ + "' has no record " + std::to_string(k),
             "its records are its " + std::to_string(available_.size()) + " non-blank lines" +
                 (available_.empty() ? std::string() : ", from line " + std::to_string(available_.front()) +
                                                           " to " + std::to_string(available_.back())));
      if (!seen_.insert(k).second) fail(at, "record " + std::to_string(k) + " is named twice");
      out_.push_back(k);
    }
  }
};
}  // namespace

std::vector<int> records_of(const std::string& text) {
  std::vector<int> out;
  int line = 1;
  bool any = false;
  for (char c : text) {
    if (c == '\n') {
      if (any) out.push_back(line);
      ++line;
      any = false;
    } else if (c != ' ' && c != '\t' && c != '\r') {
      any = true;
    }
  }
  if (any) out.push_back(line);
  return out;
}

std::vector<int> parse_record_list(const std::string& list, const std::vector<int>& available, const std::string& file) {
  return ListReader(list, available, file).read();
}

}  // namespace permjit
