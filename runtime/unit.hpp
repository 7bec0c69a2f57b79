// A translation unit: the prelude, the generated problem source and one skeleton
// template, each behind a #line that names it, so compiler messages say which part.
#pragma once
#include <string>
#include <vector>

#include "generator/generate.hpp"

namespace permjit {

// `templates` are names of embedded templates/ files, in order, after the problem and
// after any other generated parts the skeleton reads (e.g. the IVM layout).
std::string assemble_unit(const ProblemSource& problem, const std::vector<std::string>& templates,
                          const std::vector<ProblemSource>& generated = {});

}  // namespace permjit
