#include "runtime/compile/nvrtc_compile.hpp"

#include <nvrtc.h>

#include <stdexcept>
#include <vector>

namespace permjit {

namespace {
void check(nvrtcResult r, const char* what) {
  if (r != NVRTC_SUCCESS) throw std::runtime_error(std::string("NVRTC ") + what + " failed: " + nvrtcGetErrorString(r));
}
}  // namespace

std::string nvrtc_version() {
  int major = 0, minor = 0;
  check(nvrtcVersion(&major, &minor), "nvrtcVersion");
  return std::to_string(major) + "." + std::to_string(minor);
}

NvrtcOutput nvrtc_compile(const std::string& unit, const std::string& name, const std::string& arch, bool want_cubin,
                          const std::vector<std::string>& extra) {
  nvrtcProgram prog;
  check(nvrtcCreateProgram(&prog, unit.c_str(), name.c_str(), 0, nullptr, nullptr), "nvrtcCreateProgram");
  std::string arch_opt = "--gpu-architecture=" + arch;
  std::vector<const char*> opts = {arch_opt.c_str(), "--std=c++17", "-lineinfo"};
  for (const auto& e : extra) opts.push_back(e.c_str());
  nvrtcResult rc = nvrtcCompileProgram(prog, static_cast<int>(opts.size()), opts.data());
  NvrtcOutput out;
  size_t n = 0;
  check(nvrtcGetProgramLogSize(prog, &n), "nvrtcGetProgramLogSize");
  out.log.resize(n);
  check(nvrtcGetProgramLog(prog, out.log.data()), "nvrtcGetProgramLog");
  while (!out.log.empty() && (out.log.back() == '\0' || out.log.back() == '\n')) out.log.pop_back();
  out.ok = rc == NVRTC_SUCCESS;
  if (rc != NVRTC_SUCCESS && rc != NVRTC_ERROR_COMPILATION) {
    nvrtcDestroyProgram(&prog);
    check(rc, "nvrtcCompileProgram");
  }
  if (out.ok) {
    check(nvrtcGetPTXSize(prog, &n), "nvrtcGetPTXSize");
    out.ptx.resize(n);
    check(nvrtcGetPTX(prog, out.ptx.data()), "nvrtcGetPTX");
    if (!out.ptx.empty() && out.ptx.back() == '\0') out.ptx.pop_back();
    if (want_cubin) {
      check(nvrtcGetCUBINSize(prog, &n), "nvrtcGetCUBINSize");
      out.cubin.resize(n);
      check(nvrtcGetCUBIN(prog, out.cubin.data()), "nvrtcGetCUBIN");
    }
  }
  check(nvrtcDestroyProgram(&prog), "nvrtcDestroyProgram");
  return out;
}

}  // namespace permjit
