// Runs Catch over the test cases linked into this executable (tests/catch_session.cpp,
// which holds Catch's implementation: compiled once for every test executable).
#pragma once

int run_catch(int argc, char** argv);
