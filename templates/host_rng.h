// splitmix64: a small random generator whose sequence is the same on every host for a
// seed. The host templates that draw at random use it: the random walks of
// `permjit check --verify-bound` (cpu_verify_bound.hpp) and the chains of local search
// (cpu_improve.hpp).
#pragma once

namespace pj_host {

struct SplitMix64 {
  unsigned long long s;
  unsigned long long next() {
    unsigned long long z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // A value in 0..n-1 (n > 0).
  int below(int n) { return static_cast<int>(next() % static_cast<unsigned long long>(n)); }
  // A value in [0, 1).
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
};

}  // namespace pj_host
