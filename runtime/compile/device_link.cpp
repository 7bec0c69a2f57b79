#include "runtime/compile/device_link.hpp"

#include <nvJitLink.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <vector>

namespace permjit {

namespace {

void check(nvJitLinkResult r, const char* what) {
  if (r != NVJITLINK_SUCCESS) throw std::runtime_error(std::string("nvJitLink ") + what + " failed (code " +
                                                       std::to_string(static_cast<int>(r)) + ")");
}

// The handle's error and info logs, joined.
std::string link_log(nvJitLinkHandle h) {
  std::string out;
  size_t n = 0;
  if (nvJitLinkGetErrorLogSize(h, &n) == NVJITLINK_SUCCESS && n > 1) {
    std::string e(n, '\0');
    if (nvJitLinkGetErrorLog(h, e.data()) == NVJITLINK_SUCCESS) out += e.c_str();
  }
  if (nvJitLinkGetInfoLogSize(h, &n) == NVJITLINK_SUCCESS && n > 1) {
    std::string i(n, '\0');
    if (nvJitLinkGetInfoLog(h, i.data()) == NVJITLINK_SUCCESS) out += i.c_str();
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

struct Handle {
  nvJitLinkHandle h = nullptr;
  ~Handle() {
    if (h) nvJitLinkDestroy(&h);
  }
};

std::string executable_dir() {
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.parent_path().string();
}

}  // namespace

std::string nvjitlink_version() {
  unsigned major = 0, minor = 0;
  check(nvJitLinkVersion(&major, &minor), "nvJitLinkVersion");
  return std::to_string(major) + "." + std::to_string(minor);
}

DeviceLinkOutput link_with_device_runtime(const std::string& rdc_cubin, const std::string& arch,
                                          const std::string& devrt_path) {
  Handle h;
  std::string arch_opt = "-arch=" + arch;
  const char* opts[] = {arch_opt.c_str()};
  check(nvJitLinkCreate(&h.h, 1, opts), "nvJitLinkCreate");
  DeviceLinkOutput out;
  nvJitLinkResult r = nvJitLinkAddData(h.h, NVJITLINK_INPUT_CUBIN, rdc_cubin.data(), rdc_cubin.size(), "module.cubin");
  if (r == NVJITLINK_SUCCESS) r = nvJitLinkAddFile(h.h, NVJITLINK_INPUT_LIBRARY, devrt_path.c_str());
  if (r == NVJITLINK_SUCCESS) r = nvJitLinkComplete(h.h);
  out.log = link_log(h.h);
  if (r != NVJITLINK_SUCCESS) {
    if (out.log.empty()) out.log = "nvJitLink error code " + std::to_string(static_cast<int>(r));
    return out;
  }
  size_t n = 0;
  check(nvJitLinkGetLinkedCubinSize(h.h, &n), "nvJitLinkGetLinkedCubinSize");
  out.cubin.resize(n);
  check(nvJitLinkGetLinkedCubin(h.h, out.cubin.data()), "nvJitLinkGetLinkedCubin");
  out.ok = true;
  return out;
}

std::string find_device_runtime() {
  std::vector<std::string> places;
  if (const char* e = std::getenv("PERMJIT_CUDADEVRT"); e && *e) places.push_back(e);
  if (std::string dir = executable_dir(); !dir.empty()) places.push_back(dir + "/../lib/libcudadevrt.a");
  places.push_back(PERMJIT_CUDADEVRT_PATH);  // the toolkit permjit was built with
  std::string looked;
  for (const auto& p : places) {
    if (access(p.c_str(), R_OK) == 0) return p;
    looked += (looked.empty() ? "" : ", ") + p;
  }
  throw std::runtime_error("the CUDA device runtime library libcudadevrt.a, which the cdp skeleton links, was not "
                           "found (looked at " + looked + "); set PERMJIT_CUDADEVRT to its path");
}

}  // namespace permjit
