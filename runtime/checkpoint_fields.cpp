#include "runtime/checkpoint_fields.hpp"

namespace permjit {

std::string one_line(const std::string& value) {
  std::string s = value;
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

void CheckpointFields::add_line(const std::string& line) {
  const size_t sp = line.find(' ');
  kv_[line.substr(0, sp)] = sp == std::string::npos ? "" : line.substr(sp + 1);
}

const std::string& CheckpointFields::text(const std::string& key) const {
  auto it = kv_.find(key);
  if (it == kv_.end()) throw damaged("no '" + key + "' line");
  return it->second;
}

namespace {
// The whole value read by `parse` (std::stoull and the like), or nullopt.
template <class T, class Parse>
bool parse_all(const std::string& s, Parse parse, T& out) {
  try {
    size_t used = 0;
    out = parse(s, &used);
    return used == s.size();
  } catch (const std::logic_error&) {  // invalid_argument, out_of_range
    return false;
  }
}
}  // namespace

unsigned long long CheckpointFields::number(const std::string& key) const {
  unsigned long long v = 0;
  const std::string& s = text(key);
  if (s.empty() || s[0] == '-' ||
      !parse_all(s, [](const std::string& x, size_t* n) { return std::stoull(x, n); }, v))
    throw damaged("'" + key + "' is not a number");
  return v;
}

long long CheckpointFields::integer(const std::string& key) const {
  long long v = 0;
  if (!parse_all(text(key), [](const std::string& x, size_t* n) { return std::stoll(x, n); }, v))
    throw damaged("'" + key + "' is not a number");
  return v;
}

double CheckpointFields::real(const std::string& key) const {
  double v = 0;
  if (!parse_all(text(key), [](const std::string& x, size_t* n) { return std::stod(x, n); }, v))
    throw damaged("'" + key + "' is not a number");
  return v;
}

std::runtime_error CheckpointFields::damaged(const std::string& why) const {
  return std::runtime_error(path_ + ": damaged checkpoint: " + why);
}

}  // namespace permjit
