#include "runtime/device/run_time_data.hpp"

#include <dlfcn.h>

#include <cstring>

#include "dsl/diagnostics.hpp"

namespace permjit {

namespace {
void check_class(const RunTimeArray& a) {
  for (int64_t v : a.values)
    PJ_INTERNAL_ASSERT(v >= a.lo && v <= a.hi, a.symbol + " holds " + std::to_string(v) + ", outside [" +
                                                   std::to_string(a.lo) + ", " + std::to_string(a.hi) +
                                                   "], the class its module was generated for");
}
}  // namespace

void upload_data(const std::vector<RunTimeArray>& data, const cuda::Module& module) {
  for (const RunTimeArray& a : data) {
    check_class(a);
    size_t bytes = 0;
    CUdeviceptr at = module.global(a.symbol.c_str(), &bytes);
    PJ_INTERNAL_ASSERT(bytes == a.bytes.size(), "the device module declares " + a.symbol + " with " +
                                                    std::to_string(bytes) + " bytes, the data have " +
                                                    std::to_string(a.bytes.size()));
    cuda::check(cuda::api().MemcpyHtoD(at, a.bytes.data(), a.bytes.size()), "uploading " + a.symbol);
  }
}

void fill_host_data(const std::vector<RunTimeArray>& data, void* dl_handle, const std::string& module_path) {
  for (const RunTimeArray& a : data) {
    check_class(a);
    void* at = dlsym(dl_handle, a.symbol.c_str());
    PJ_INTERNAL_ASSERT(at != nullptr, "the compiled module " + module_path + " has no " + a.symbol);
    std::memcpy(at, a.bytes.data(), a.bytes.size());
  }
}

}  // namespace permjit
