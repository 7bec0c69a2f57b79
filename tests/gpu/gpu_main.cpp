// GPU tests skip, visibly, when there is no device: ctest shows them as skipped
// (SKIP_RETURN_CODE 77), never as passed.
#include <iostream>

#include "catch_session.hpp"

#include "runtime/device/cuda_driver.hpp"

int main(int argc, char** argv) {
  std::string why;
  permjit::cuda::Device dev;
  if (!permjit::cuda::first_device(dev, &why)) {
    std::cout << "SKIP: no GPU: " << why << '\n';
    return 77;
  }
  std::cout << "device: " << dev.name << " (" << dev.arch() << ", " << dev.sm_count << " SMs)\n";
  return run_catch(argc, argv);
}
