// spec -> the problem's C++ source. Device-compatible (no STL, exceptions or heap);
// sizes and instance data are compile-time constants; `#line` points into the .toml.
// The same text compiles with the host compiler (CPU backend) and with NVRTC.
#pragma once
#include <string>

#include "dsl/spec.hpp"
#include "generator/int_width.hpp"

namespace permjit {

struct ProblemSource {
  std::string name;       // the file name the source calls itself in #line
  std::string text;
  IntWidth width;         // whether its ints are 64-bit (generator/int_width.hpp)
};

ProblemSource generate_problem(const ProblemSpec& spec);

}  // namespace permjit

namespace permjit {

// Levels of the search below the fixed prefix (the digits of an IVM position).
int ivm_levels(const ProblemSpec& spec);
// The IVM layout for the `ivm` skeleton (seed 001 §3.1), placed after the problem
// (generator/generate.cpp lists both entry points).
ProblemSource generate_ivm_layout(const ProblemSpec& spec);

}  // namespace permjit
