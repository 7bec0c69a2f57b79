// An array index in the spec that the generator could not prove inside its dimension:
// the generated code clamps it (docs/spec-language.md, section 13), and a checked build
// of the cpu module reports a read there that counts (templates/prelude.h, PJ_INDEX).
// The generated code names a site by its number in ProblemSource::index_sites.
#pragma once
#include <cstdint>
#include <string>

#include "dsl/source.hpp"

namespace permjit {

struct IndexSite {
  Loc loc;            // the index expression
  std::string array;  // the array's name in the spec
  int64_t dim = 0;    // the dimension it indexes: valid indices are 0..dim-1
};

}  // namespace permjit
