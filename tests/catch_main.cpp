// The main of the test executables that need nothing before Catch runs.
#include "catch_session.hpp"

int main(int argc, char** argv) { return run_catch(argc, argv); }
