#include "runtime/compile/gpu_compile.hpp"

#include <chrono>
#include <fstream>
#include <sstream>

#include "dsl/diagnostics.hpp"
#include "runtime/compile/device_link.hpp"
#include "runtime/compile/host_compiler.hpp"
#include "runtime/compile/nvrtc_compile.hpp"
#include "runtime/core/version.hpp"

namespace permjit {

namespace {
double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// The cache key of the unit's image, and the device runtime's path when it links one.
std::string module_key(const CompileUnit& unit, const std::string& arch, std::string& devrt) {
  PJ_INTERNAL_ASSERT(unit.target == UnitTarget::device, "compile_gpu_module needs a device unit");
  std::vector<std::string> key_parts = {"gpu-module", kPermjitVersion, nvrtc_version(), arch, unit.text};
  for (const auto& o : unit.options) key_parts.push_back(o);
  if (unit.device_runtime) {
    devrt = find_device_runtime();
    key_parts.insert(key_parts.end(), {"rdc+cudadevrt", nvjitlink_version(), file_digest(devrt)});
  }
  return cache_key(key_parts);
}

std::optional<GpuModuleImage> lookup(const std::string& key, const ModuleCache& cache,
                                     std::chrono::steady_clock::time_point t0) {
  auto hit = cache.lookup(key, ".cubin");
  if (!hit) return std::nullopt;
  std::ifstream in(*hit, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return GpuModuleImage{ss.str(), true, "", since(t0), 0};
}
}  // namespace

std::optional<GpuModuleImage> cached_gpu_module(const CompileUnit& unit, const std::string& arch,
                                                const ModuleCache& cache) {
  const auto t0 = std::chrono::steady_clock::now();
  std::string devrt;
  return lookup(module_key(unit, arch, devrt), cache, t0);
}

GpuModuleImage compile_gpu_module(const CompileUnit& unit, const std::string& arch, const ModuleCache& cache) {
  std::string devrt;
  const std::string key = module_key(unit, arch, devrt);
  const auto t0 = std::chrono::steady_clock::now();
  if (auto hit = lookup(key, cache, t0)) return std::move(*hit);
  NvrtcOutput out = nvrtc_compile(unit.text, unit.name, arch, true, unit.options);
  auto fail = [&](const std::string& what, const std::string& log) {
    std::string saved = cache.dir() + "/failed-" + key + ".cu";
    write_file_atomic(saved, unit.text);
    throw CompileError(what, log, saved);
  };
  if (!out.ok) fail("NVRTC failed on the generated code for " + arch, out.log);
  std::string cubin = out.cubin;
  const double nvrtc_s = since(t0);
  const auto t_link = std::chrono::steady_clock::now();
  if (unit.device_runtime) {
    DeviceLinkOutput linked = link_with_device_runtime(out.cubin, arch, devrt);
    if (!linked.ok) fail("nvJitLink failed to link the module with " + devrt + " for " + arch, linked.log);
    cubin = std::move(linked.cubin);
  }
  std::string tmp = cache.temp_path(".cubin");
  if (write_file_atomic(tmp, cubin)) cache.store(key, ".cubin", tmp);
  return GpuModuleImage{cubin, false, out.log, nvrtc_s, unit.device_runtime ? since(t_link) : 0};
}

}  // namespace permjit
