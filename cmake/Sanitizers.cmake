# Two instrumented builds, both off by default (the normal build and CI are unchanged):
#  - PERMJIT_FUZZ: clang's ASan + UBSan and libFuzzer's coverage for every target; the
#    harnesses of tests/fuzz/ link libFuzzer (scripts/fuzz.sh).
#  - PERMJIT_SANITIZE: ASan + UBSan for permjit's own code and tests (scripts/sanitize.sh).
# UBSan stops at its first report, so that a test or a fuzzer sees it as a failure.
option(PERMJIT_FUZZ "build the libFuzzer harnesses (clang), with ASan and UBSan" OFF)
option(PERMJIT_SANITIZE "build with ASan and UBSan" OFF)
if(PERMJIT_FUZZ AND NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "PERMJIT_FUZZ needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
endif()
set(permjit_sanitizers -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
# Both link with --as-needed, which the plain build gets from the distribution's GCC but
# the sanitized links did not: CUDA::toolkit names the driver's stub library, which
# nothing calls (the driver is opened at run time) and which a host without a GPU lacks.
if(PERMJIT_FUZZ)
  add_compile_options(${permjit_sanitizers} -fsanitize=fuzzer-no-link)
  add_link_options(-fsanitize=address,undefined -Wl,--as-needed)
elseif(PERMJIT_SANITIZE)
  add_compile_options(${permjit_sanitizers})
  add_link_options(-fsanitize=address,undefined -Wl,--as-needed)
endif()
