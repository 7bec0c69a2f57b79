// The runtime's exceptions as the Python exceptions of permjit/_errors.py: a user's
// mistake (UserErrors) becomes SpecError with every diagnostic's place, a failed compile
// CompileError with its log, a signal that ended a checkpointed search SearchInterrupted.
#pragma once
#include <nanobind/nanobind.h>

namespace permjit::py {

void register_errors();

}  // namespace permjit::py
