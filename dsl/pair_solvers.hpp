// The host's reference for the two-set reductions assign(), arborescence() and minprod()
// (docs/spec-language.md, "Reductions"), used by the static evaluator ([derived]
// values). The generated code uses templates/pair_reductions.h; tests compare both
// with brute force.
#pragma once
#include <cstdint>
#include <vector>

namespace permjit {

// The minimum cost of matching every row of `cost` (rows x cols) to a distinct column
// when rows <= cols, or every column to a distinct row otherwise; 0 when either side
// is empty. Shortest augmenting paths, O(k^2 * max(rows, cols)). With `row_potentials`,
// a square matrix's rows' potentials u too: with the columns' v, cost - u - v >= 0 and
// sum(u) + sum(v) is the cost (the Lagrangian root's start, dsl/lagrange_root.cpp).
int64_t min_cost_assignment(const std::vector<std::vector<int64_t>>& cost,
                            std::vector<int64_t>* row_potentials = nullptr);

// The minimum cost of choosing for every element t[b] of T one element s[a] of S with
// s[a] != t[b] (the arc s[a] -> t[b], of cost cost[a][b]) such that the chosen arcs have
// no cycle: a forest over S + T whose roots are the elements of S not in T. 0 when T is
// empty or when every element of S is in T (no root: no such forest). Elements are
// values (the same value on both sides is one element). Chu-Liu/Edmonds, O(k^3).
int64_t min_cost_arborescence(const std::vector<int64_t>& s, const std::vector<int64_t>& t,
                              const std::vector<std::vector<int64_t>>& cost);

// The cheapest forest of arborescence() over `cost` (rows s, columns t) and how many of
// its arcs leave each element of s (deg, resized to |s|). False when S has no root.
bool arborescence_out_degrees(const std::vector<int64_t>& s, const std::vector<int64_t>& t,
                              const std::vector<std::vector<int64_t>>& cost, int64_t& total, std::vector<int>& deg);

// The smallest m = min(|a|, |b|) values of each, a ascending against b descending.
int64_t min_scalar_product(std::vector<int64_t> a, std::vector<int64_t> b);

}  // namespace permjit
