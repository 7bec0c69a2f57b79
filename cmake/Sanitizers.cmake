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
if(PERMJIT_FUZZ)
  add_compile_options(${permjit_sanitizers} -fsanitize=fuzzer-no-link)
  # --as-needed, as the distribution's GCC links by default: CUDA::toolkit names the
  # driver's stub library, which the harnesses never call (the driver is opened at run
  # time) and which a host without a GPU does not have.
  add_link_options(-fsanitize=address,undefined -Wl,--as-needed)
elseif(PERMJIT_SANITIZE)
  add_compile_options(${permjit_sanitizers})
  add_link_options(-fsanitize=address,undefined)
endif()
