// An include that runs up the house: check_layers.py must name it (tests/CMakeLists.txt).
#pragma once
#include "runtime/solve.hpp"
