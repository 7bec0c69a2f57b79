#include "runtime/gpu_compile.hpp"

#include <fstream>
#include <sstream>

#include "runtime/host_compiler.hpp"
#include "runtime/nvrtc_compile.hpp"
#include "runtime/version.hpp"

namespace permjit {

GpuModuleImage compile_gpu_module(const std::string& unit, const std::string& name, const std::string& arch,
                                  const std::vector<std::string>& defines, const ModuleCache& cache) {
  std::vector<std::string> key_parts = {"gpu-module", kPermjitVersion, nvrtc_version(), arch, unit};
  for (const auto& d : defines) key_parts.push_back(d);
  std::string key = cache_key(key_parts);
  if (auto hit = cache.lookup(key, ".cubin")) {
    std::ifstream in(*hit, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return GpuModuleImage{ss.str(), true, ""};
  }
  NvrtcOutput out = nvrtc_compile(unit, name, arch, true, defines);
  if (!out.ok) {
    std::string saved = cache.dir() + "/failed-" + key + ".cu";
    write_file_atomic(saved, unit);
    throw CompileError("NVRTC failed on the generated code for " + arch, out.log, saved);
  }
  std::string tmp = cache.temp_path(".cubin");
  if (write_file_atomic(tmp, out.cubin)) cache.store(key, ".cubin", tmp);
  return GpuModuleImage{out.cubin, false, out.log};
}

}  // namespace permjit
