// Linking relocatable device code with the CUDA device runtime (libcudadevrt.a), which
// kernels that launch kernels need: nvJitLink, which runs without a GPU, so CI links
// the same cubin that the device loads.
#pragma once
#include <string>

namespace permjit {

struct DeviceLinkOutput {
  bool ok = false;
  std::string cubin;
  std::string log;  // nvJitLink's messages
};

// Links a relocatable cubin (NVRTC -rdc=true) for `arch` ("sm_90") with the device
// runtime library at `devrt_path`. A failure of nvJitLink itself (not of the code)
// throws std::runtime_error.
DeviceLinkOutput link_with_device_runtime(const std::string& rdc_cubin, const std::string& arch,
                                          const std::string& devrt_path);

// nvJitLink's version, "major.minor", part of cache keys.
std::string nvjitlink_version();

// Where libcudadevrt.a is: $PERMJIT_CUDADEVRT, else lib/ beside the permjit binary's
// folder (an install, or the folder carried to a GPU machine), else the CUDA toolkit
// permjit was built with. Throws std::runtime_error naming every place it looked.
std::string find_device_runtime();

}  // namespace permjit
