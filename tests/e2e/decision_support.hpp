// Helpers for the decision and enumeration tests (CPU and GPU): specs that find, the
// solutions a run listed, and brute-force lists that share no code with permjit.
#pragma once
#include <algorithm>
#include <fstream>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "e2e_support.hpp"

namespace permjit::test {

using Perm = std::vector<int>;

// problems/nqueens.toml with goal = "find": the same problem, asking for one placement.
inline std::string nqueens_find_spec() {
  std::ifstream in(problem("nqueens.toml"));
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  const std::string count = "goal = \"count\"";
  const size_t at = s.find(count);
  REQUIRE(at != std::string::npos);
  s.replace(at, count.size(), "goal = \"find\"");
  return temp_file("nqueens_find.toml", s);
}

// No two queens share a column or a diagonal (rows are positions).
inline bool queens_valid(const Perm& p) {
  for (size_t i = 0; i < p.size(); ++i)
    for (size_t j = i + 1; j < p.size(); ++j)
      if (p[i] == p[j] || std::abs(p[i] - p[j]) == static_cast<int>(j - i)) return false;
  return true;
}

// The solutions a run wrote to --out (--list-format lines).
inline std::vector<Perm> read_listed(const std::string& path) {
  std::ifstream in(path);
  std::vector<Perm> out;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    Perm p;
    for (int v; words >> v;) p.push_back(v);
    out.push_back(p);
  }
  return out;
}

// Every permutation of 0..n-1 (with p[0] = 0 when fix_first) whose cost is the
// smallest.
template <class Cost>
std::set<Perm> brute_force_optimal(int n, bool fix_first, Cost cost) {
  Perm p(n);
  std::iota(p.begin(), p.end(), 0);
  long long best = LLONG_MAX;
  std::set<Perm> all;
  do {
    if (fix_first && p[0] != 0) continue;
    const long long c = cost(p);
    if (c < best) {
      best = c;
      all.clear();
    }
    if (c == best) all.insert(p);
  } while (std::next_permutation(p.begin(), p.end()));
  return all;
}

// Options that list to a fresh file of the temporary directory.
inline SolveOptions listing(const std::string& spec, const std::string& skeleton, const std::string& out_name) {
  SolveOptions o;
  o.load.spec_path = spec;
  o.skeleton = skeleton;
  o.threads = 2;
  o.cache_dir = cache_dir();
  o.list_out = temp_file(out_name, "");
  return o;
}

}  // namespace permjit::test
