#include "runtime/gpu_compile.hpp"

#include <fstream>
#include <sstream>

#include "runtime/device_link.hpp"
#include "runtime/host_compiler.hpp"
#include "runtime/nvrtc_compile.hpp"
#include "runtime/version.hpp"

namespace permjit {

GpuModuleImage compile_gpu_module(const std::string& unit, const std::string& name, const std::string& arch,
                                  const std::vector<std::string>& defines, const ModuleCache& cache,
                                  bool device_runtime) {
  std::vector<std::string> key_parts = {"gpu-module", kPermjitVersion, nvrtc_version(), arch, unit};
  for (const auto& d : defines) key_parts.push_back(d);
  std::string devrt;
  if (device_runtime) {
    devrt = find_device_runtime();
    key_parts.insert(key_parts.end(), {"rdc+cudadevrt", nvjitlink_version(), file_digest(devrt)});
  }
  std::string key = cache_key(key_parts);
  if (auto hit = cache.lookup(key, ".cubin")) {
    std::ifstream in(*hit, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return GpuModuleImage{ss.str(), true, ""};
  }
  std::vector<std::string> options = defines;
  if (device_runtime) options.push_back("-rdc=true");
  NvrtcOutput out = nvrtc_compile(unit, name, arch, true, options);
  auto fail = [&](const std::string& what, const std::string& log) {
    std::string saved = cache.dir() + "/failed-" + key + ".cu";
    write_file_atomic(saved, unit);
    throw CompileError(what, log, saved);
  };
  if (!out.ok) fail("NVRTC failed on the generated code for " + arch, out.log);
  std::string cubin = out.cubin;
  if (device_runtime) {
    DeviceLinkOutput linked = link_with_device_runtime(out.cubin, arch, devrt);
    if (!linked.ok) fail("nvJitLink failed to link the module with " + devrt + " for " + arch, linked.log);
    cubin = std::move(linked.cubin);
  }
  std::string tmp = cache.temp_path(".cubin");
  if (write_file_atomic(tmp, cubin)) cache.store(key, ".cubin", tmp);
  return GpuModuleImage{cubin, false, out.log};
}

}  // namespace permjit
