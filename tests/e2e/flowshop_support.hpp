// Flowshop helpers shared by the CPU and GPU tests: Taillard files, the published
// optima, and a makespan that shares no code with the spec.
#pragma once
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "e2e_support.hpp"

namespace permjit::test {

struct FlowshopInstance {
  int jobs = 0, machines = 0;
  Matrix p;  // p[k][j], machine-major as in Taillard's files
};

inline FlowshopInstance read_taillard(const std::string& path) {
  std::ifstream in(path);
  FlowshopInstance f;
  in >> f.jobs >> f.machines;
  f.p.assign(f.machines, std::vector<int>(f.jobs));
  for (auto& row : f.p)
    for (auto& x : row) in >> x;
  return f;
}

// Processing times 1..hi, seeded.
inline FlowshopInstance random_flowshop(int jobs, int machines, unsigned seed, int hi = 99) {
  FlowshopInstance f;
  f.jobs = jobs;
  f.machines = machines;
  f.p = Matrix(machines, std::vector<int>(jobs));
  Matrix r = random_matrix(std::max(jobs, machines), 1, hi, seed);
  for (int k = 0; k < machines; ++k)
    for (int j = 0; j < jobs; ++j) f.p[k][j] = r[k][j];
  return f;
}

inline std::string taillard_text(const FlowshopInstance& f) {
  std::string s = std::to_string(f.jobs) + " " + std::to_string(f.machines) + "\n";
  for (const auto& row : f.p) {
    for (int x : row) s += std::to_string(x) + " ";
    s += "\n";
  }
  return s;
}

inline long long makespan(const FlowshopInstance& f, const std::vector<int>& order) {
  std::vector<long long> done(f.machines, 0);
  for (int j : order)
    for (int k = 0; k < f.machines; ++k) done[k] = std::max(done[k], k ? done[k - 1] : 0) + f.p[k][j];
  return done.back();
}

// The optimum of Taillard instance `name` (e.g. "ta001"), from taillard_makespans.csv.
inline long long taillard_optimum(const std::string& name) {
  std::ifstream in(instance("flowshop/taillard_makespans.csv"));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(name + ",", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
    if (cells.size() > 5 && cells[5] == "optimal") return std::stoll(cells[4]);
  }
  return -1;
}

}  // namespace permjit::test
