#include "runtime/distributed/checkpoint_fields.hpp"

#include <xxhash.h>

#include <cstdio>
#include <sstream>

#include "runtime/compile/cache.hpp"

namespace permjit {

namespace {

std::string hex64(unsigned long long v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", v);
  return buf;
}


}  // namespace

std::string checkpoint_checksum(std::string_view header, std::string_view data) {
  XXH3_state_t* st = XXH3_createState();
  XXH3_64bits_reset(st);
  XXH3_64bits_update(st, header.data(), header.size());
  XXH3_64bits_update(st, data.data(), data.size());
  std::string h = hex64(XXH3_64bits_digest(st));
  XXH3_freeState(st);
  return h;
}

std::string source_identity(const std::string& generated_text) {
  std::istringstream in(generated_text);
  std::string line, kept;
  while (std::getline(in, line)) {
    size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos) continue;
    if (line.compare(b, 5, "#line") == 0 || line.compare(b, 2, "//") == 0) continue;
    size_t comment = line.find("  //");  // trailing comments name spec lines
    kept += line.substr(0, comment) + '\n';
  }
  return cache_key({"ivm-source", kept});
}

std::string data_identity(const std::vector<RunTimeArray>& data) {
  std::vector<std::string> parts = {"ivm-data"};
  for (const RunTimeArray& a : data) {
    parts.push_back(a.symbol);
    parts.push_back(a.bytes);
  }
  return cache_key(parts);
}


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
