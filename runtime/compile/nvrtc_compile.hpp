// NVRTC: a translation unit -> PTX (and cubin) for one GPU architecture. Needs no GPU.
#pragma once
#include <string>
#include <vector>

namespace permjit {

struct NvrtcOutput {
  bool ok = false;
  std::string log;    // the compiler's messages (with #line-mapped places)
  std::string ptx;
  std::string cubin;  // empty unless asked for
};

// `arch` like "sm_90". Every NVRTC call's status is checked; a failure of NVRTC itself
// (not of the code) throws std::runtime_error.
// `extra` options are passed as they are (e.g. "-DPJ_BLOCK=128", "--ptxas-options=-v").
NvrtcOutput nvrtc_compile(const std::string& unit, const std::string& name, const std::string& arch, bool want_cubin,
                          const std::vector<std::string>& extra = {});
// NVRTC's version as "major.minor", part of cache keys.
std::string nvrtc_version();

}  // namespace permjit
