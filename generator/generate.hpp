// spec -> the problem's C++ source. Device-compatible (no STL, exceptions or heap);
// sizes and instance data are compile-time constants; `#line` points into the .toml.
// The same text compiles with the host compiler (CPU backend) and with NVRTC.
#pragma once
#include <string>

#include "dsl/spec.hpp"
#include "generator/index_site.hpp"
#include "generator/int_width.hpp"

namespace permjit {

// A data array the generated code reads at run time (dsl/run_time_data.hpp): its
// symbol in the compiled module and its elements as the module lays them out.
struct RunTimeArray {
  std::string symbol;        // an extern "C" name
  std::string bytes;         // row-major, in the declared element type
  int64_t lo = 0, hi = 0;    // the value class the code was generated for
  std::vector<int64_t> values;  // the same elements, for checks
};

struct ProblemSource {
  std::string name;       // the file name the source calls itself in #line
  std::string text;
  // Template parts (templates/NAME) that follow the text in every unit: code the same
  // for every spec, over the functions this text defines.
  std::vector<std::string> templates;
  IntWidth width;         // whether its ints are 64-bit (generator/int_width.hpp)
  // What the module needs when it loads: the run-time data arrays (empty when the
  // values are compiled in, --specialize data).
  std::vector<RunTimeArray> data;
  // Loads of run-time data in the text, loops counted at their unrolled size
  // (CodeWriter::unrolled_run_time_reads; generator/choose_data.cpp).
  int64_t run_time_reads = 0;
  // The indices PJ_INDEX checks in a checked build, by the number the text gives them.
  std::vector<IndexSite> index_sites;
  // Template parts that precede the text in every unit: code the same for every spec
  // that has some feature, generic over what the text hands it (templates/symmetry_border.h).
  std::vector<std::string> headers;
};

ProblemSource generate_problem(const ProblemSpec& spec);

}  // namespace permjit

namespace permjit {

// Levels of the search below the fixed prefix (the digits of an IVM position).
int ivm_levels(const ProblemSpec& spec);
// The IVM layout for the `ivm` skeleton (Carneiro Pessoa et al. 2016 §3.1), placed after the problem
// (generator/generate.cpp lists both entry points).
ProblemSource generate_ivm_layout(const ProblemSpec& spec);

}  // namespace permjit
