// The probe behind the two-set reduction tests (assignment_test.cpp,
// arborescence_test.cpp): a minimize spec with one leaf (candidates = bit(d)) whose
// objective is the expression under test, read from an instance of `dims` (what the
// expression takes its sides from) and a kShape x kShape matrix `c`. Its values are
// read at run time, so one module per form serves every matrix.
#pragma once
#include <string>
#include <vector>

#include "e2e_support.hpp"

namespace permjit::test {

constexpr int kProbeShape = 10;  // matrices up to 9 x 9, plus a pinned corner

// The spec: `forms` values of the parameter `form`, `dims` ints before the matrix (the
// last of them 15 and c[9][9] = -64: they pin the arrays' value classes), and the
// objective (a TOML multi-line literal).
inline std::string reduction_probe_spec(const std::string& name, int forms, int dims, const std::string& objective) {
  return "[problem]\nname = \"" + name + "\"\ngoal = \"minimize\"\nsize = \"n\"\n\n[params]\n" +
         "form = { type = \"int\", default = 0, range = [0, " + std::to_string(forms - 1) + "] }\n\n[data]\n" +
         "n = \"int\"\ndims = \"int[" + std::to_string(dims) + "]\"\nc = \"int[n][n]\"\n\n[instance]\n" +
         "format = \"layout\"\nread = [\"n\", \"dims\", \"c\"]\n\n[branch]\ncandidates = \"bit(d)\"\nbound = \"0\"\n" +
         "objective = '''\n" + objective + "'''\n";
}

// The objective of `spec` (a file) on `dims` (15 appended) and `c`, for parameter `form`.
inline long long solve_reduction_probe(const std::string& spec, int form, std::vector<int> dims, const Matrix& c) {
  dims.push_back(15);
  std::string text = std::to_string(kProbeShape) + "\n";
  for (int d : dims) text += std::to_string(d) + " ";
  text += "\n";
  for (int i = 0; i < kProbeShape; ++i) {
    for (int j = 0; j < kProbeShape; ++j)
      text += std::to_string(i == kProbeShape - 1 && j == kProbeShape - 1 ? -64 : c[i][j]) + " ";
    text += "\n";
  }
  SolveOptions o;
  o.load.spec_path = spec;
  o.load.instance_path = temp_file(std::filesystem::path(spec).stem().string() + ".txt", text);
  o.load.params = {"form=" + std::to_string(form)};
  o.load.data = "run-time";
  o.backend = "cpu";
  o.skeleton = "cpu";
  o.threads = 1;
  o.cache_dir = cache_dir();
  SolveResult r = solve(o);
  REQUIRE(r.found);
  return r.objective;
}

}  // namespace permjit::test
