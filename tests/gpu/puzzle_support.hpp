// What the GPU IDA* tests share: a board read from an instance file, and a path's moves
// (the blank's direction) replayed on it.
#pragma once
#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace permjit::test {

// The path's moves replayed on a w x w board end at the goal.
inline bool reaches_goal(std::vector<int> board, int w, const std::vector<std::string>& path) {
  int z = static_cast<int>(std::find(board.begin(), board.end(), 0) - board.begin());
  for (const auto& m : path) {
    int t = m == "up" ? z - w : m == "down" ? z + w : m == "left" ? z - 1 : z + 1;
    bool ok = m == "up" ? z >= w : m == "down" ? z < w * w - w : m == "left" ? z % w != 0 : z % w != w - 1;
    if (!ok) return false;
    std::swap(board[z], board[t]);
    z = t;
  }
  for (int i = 0; i < w * w; ++i)
    if (board[i] != i) return false;
  return true;
}

// Line `record` of `file` (the first when record is 0).
inline std::vector<int> read_board(const std::string& file, int record) {
  std::ifstream in(file);
  std::string line;
  for (int k = 0; k < std::max(1, record); ++k) std::getline(in, line);
  std::istringstream ls(line);
  std::vector<int> b;
  for (int x; ls >> x;) b.push_back(x);
  return b;
}

// The numbers of a file, one or more per line (the optimal lengths beside an instance set).
inline std::vector<int> read_numbers(const std::string& file) {
  std::ifstream in(file);
  std::vector<int> out;
  for (int x; in >> x;) out.push_back(x);
  return out;
}

}  // namespace permjit::test
