// Catch's implementation, compiled once for every test executable (tests/CMakeLists.txt):
// its single header's implementation is the slowest file of the build. Each executable
// brings its own main: catch_main.cpp, or gpu/gpu_main.cpp, which skips without a GPU.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "catch_session.hpp"

int run_catch(int argc, char** argv) { return Catch::Session().run(argc, argv); }
