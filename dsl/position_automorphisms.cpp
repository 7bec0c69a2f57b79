#include "dsl/position_automorphisms.hpp"

#include <algorithm>
#include <deque>
#include <numeric>

namespace permjit {

namespace {

// One backtracking search for an automorphism with a prescribed image of one position:
// the positions are given images one after another, each image checked against the
// tables' entries with every position already mapped.
class AutomorphismSearch {
 public:
  AutomorphismSearch(std::span<const AutomorphismTable> tables, int size, long long& budget)
      : tables_(tables), n_(size), budget_(budget) {
    // What an image must share with its position before any pair is looked at: its
    // entries in the 1-dimensional tables, and per square table its diagonal entry and
    // its row's and column's values as multisets.
    signature_.resize(static_cast<size_t>(n_));
    for (int i = 0; i < n_; ++i) {
      std::vector<int64_t>& s = signature_[static_cast<size_t>(i)];
      for (const AutomorphismTable& t : tables_) {
        if (t.dims == 1) {
          s.push_back(t.values[static_cast<size_t>(i)]);
          continue;
        }
        s.push_back(at(t, i, i));
        std::vector<int64_t> row, col;
        for (int j = 0; j < n_; ++j)
          if (j != i) {
            row.push_back(at(t, i, j));
            col.push_back(at(t, j, i));
          }
        std::sort(row.begin(), row.end());
        std::sort(col.begin(), col.end());
        s.insert(s.end(), row.begin(), row.end());
        s.insert(s.end(), col.begin(), col.end());
      }
    }
  }

  // An automorphism t (t[i] the image of i) with t[from] = to; empty when there is none
  // or the budget ran out (exhausted() tells which).
  std::vector<int> find(int from, int to) {
    image_.assign(static_cast<size_t>(n_), -1);
    used_.assign(static_cast<size_t>(n_), 0);
    order_.clear();
    order_.push_back(from);
    for (int i = 0; i < n_; ++i)
      if (i != from) order_.push_back(i);
    if (!fits(from, to, 0)) return {};
    assign(from, to);
    if (!extend(1)) return {};
    return image_;
  }

  bool exhausted() const { return budget_ < 0; }

 private:
  std::span<const AutomorphismTable> tables_;
  int n_;
  long long& budget_;
  std::vector<std::vector<int64_t>> signature_;
  std::vector<int> order_, image_;
  std::vector<char> used_;

  int64_t at(const AutomorphismTable& t, int i, int j) const {
    return t.values[static_cast<size_t>(i) * static_cast<size_t>(n_) + static_cast<size_t>(j)];
  }

  void assign(int i, int w) {
    image_[static_cast<size_t>(i)] = w;
    used_[static_cast<size_t>(w)] = 1;
  }

  // Whether i may map to w, given the images of the first `mapped` positions of order_.
  bool fits(int i, int w, size_t mapped) {
    --budget_;
    if (signature_[static_cast<size_t>(i)] != signature_[static_cast<size_t>(w)]) return false;
    for (const AutomorphismTable& t : tables_) {
      if (t.dims == 1) continue;  // the signature holds its entry
      for (size_t k = 0; k < mapped; ++k) {
        const int j = order_[k], wj = image_[static_cast<size_t>(j)];
        if (at(t, w, wj) != at(t, i, j) || at(t, wj, w) != at(t, j, i)) return false;
      }
    }
    return true;
  }

  bool extend(size_t k) {
    if (k == order_.size()) return true;
    const int i = order_[k];
    for (int w = 0; w < n_; ++w) {
      if (used_[static_cast<size_t>(w)]) continue;
      if (budget_ < 0) return false;
      if (!fits(i, w, k)) continue;
      assign(i, w);
      if (extend(k + 1)) return true;
      image_[static_cast<size_t>(i)] = -1;
      used_[static_cast<size_t>(w)] = 0;
    }
    return false;
  }
};

std::vector<int> inverse(const std::vector<int>& t) {
  std::vector<int> inv(t.size());
  for (size_t i = 0; i < t.size(); ++i) inv[static_cast<size_t>(t[i])] = static_cast<int>(i);
  return inv;
}

// e[x], for each x of 0's orbit under the group the generators generate, an element of
// it with e[x][0] = x (empty for the positions outside the orbit): a breadth-first walk
// from 0. A finite group's generators reach the whole orbit without their inverses.
std::vector<std::vector<int>> reach_from_first(const std::vector<std::vector<int>>& generators, int size) {
  std::vector<std::vector<int>> e(static_cast<size_t>(size));
  e[0].resize(static_cast<size_t>(size));
  std::iota(e[0].begin(), e[0].end(), 0);
  std::deque<int> queue{0};
  while (!queue.empty()) {
    const int x = queue.front();
    queue.pop_front();
    for (const std::vector<int>& g : generators) {
      const int y = g[static_cast<size_t>(x)];
      if (!e[static_cast<size_t>(y)].empty()) continue;
      std::vector<int> composed(static_cast<size_t>(size));
      for (int i = 0; i < size; ++i) composed[static_cast<size_t>(i)] = g[static_cast<size_t>(e[static_cast<size_t>(x)][static_cast<size_t>(i)])];
      e[static_cast<size_t>(y)] = std::move(composed);
      queue.push_back(y);
    }
  }
  return e;
}

}  // namespace

FirstPositionOrbit first_position_orbit(std::span<const AutomorphismTable> tables, int size, long long step_budget) {
  FirstPositionOrbit r;
  if (size <= 0) return r;
  long long budget = step_budget;
  AutomorphismSearch search(tables, size, budget);
  std::vector<std::vector<int>> generators;
  std::vector<std::vector<int>> reach = reach_from_first(generators, size);
  for (int x = 1; x < size; ++x) {
    if (!reach[static_cast<size_t>(x)].empty()) continue;  // in the orbit already
    std::vector<int> t = search.find(0, x);
    if (search.exhausted()) {
      r.complete = false;
      break;
    }
    if (t.empty()) continue;
    generators.push_back(std::move(t));
    reach = reach_from_first(generators, size);
  }
  r.generators = static_cast<int>(generators.size());
  for (int x = 0; x < size; ++x)
    if (!reach[static_cast<size_t>(x)].empty()) {
      r.orbit.push_back(x);
      r.to_first.push_back(inverse(reach[static_cast<size_t>(x)]));
    }
  return r;
}

}  // namespace permjit
