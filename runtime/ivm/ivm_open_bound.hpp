// What a stopped `ivm` search proves (docs/reliability.md, "Partial answers"): the open
// work of every image the stop took (each GPU's explorers, the pool's, other MPI ranks'),
// bounded on the device by pj_ivm_open_bound (templates/ivm_open_work.h) and handed over
// as the `cpu` skeleton hands over its open subtrees (PjCpuResult::open_*), which
// set_partial_bound (runtime/core/partial_bound.hpp) makes into the proven bound.
#pragma once
#include <string>
#include <vector>

#include "generator/generate.hpp"  // RunTimeArray
#include "runtime/ivm/ivm_device.hpp"
#include "templates/cpu_abi.h"

namespace permjit {

// On the calling thread's current context: loads `cubin` (the run's ivm module) with its
// run-time `data`, and bounds the explorers of each image (IvmShape's T, levels and set
// sizes) against the incumbent `best`. Returns the open children counted, their least
// bound (open_bound_known when some are open and the goal optimises) and the root's bound.
PjCpuResult ivm_open_work(const std::string& cubin, const std::vector<RunTimeArray>& data, const IvmShape& shape,
                          const std::vector<std::string>& images, int best, bool optimise, bool maximise);

}  // namespace permjit
