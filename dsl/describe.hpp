// `permjit emit --stage spec`: the checked spec as a person reads it, with types and
// the values the parameters and the instance gave.
#pragma once
#include <string>

#include "dsl/spec.hpp"

namespace permjit {
std::string describe_spec(const ProblemSpec& spec);
}
