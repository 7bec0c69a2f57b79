// Writes a module's run-time data arrays (dsl/run_time_data.hpp, ProblemSource::data)
// into the loaded module: the device module's by symbol, the host module's (a shared
// object) through dlsym. Each array is checked against the declaration it fills: a
// missing symbol, a size that differs or a value outside the class the code was
// generated for is a broken invariant of ours (the source and the data come from one
// spec), never a wrong answer.
#pragma once
#include <string>
#include <vector>

#include "generator/generate.hpp"
#include "runtime/device/cuda_driver.hpp"

namespace permjit {

void upload_data(const std::vector<RunTimeArray>& data, const cuda::Module& module);
void fill_host_data(const std::vector<RunTimeArray>& data, void* dl_handle, const std::string& module_path);

}  // namespace permjit
