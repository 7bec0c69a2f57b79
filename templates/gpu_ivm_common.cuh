// What the `ivm` skeleton's two device units share (runtime/ivm/ivm_skeleton.cpp,
// ivm_units): the search's module (templates/gpu_ivm.cuh) and the open-work module
// compiled only when a stop or the progress line's bound first needs it
// (templates/gpu_ivm_open.cuh). Both lay the explorers out alike, and the host checks
// each module's layout constants against its own.

// Shapes from which the explorers keep an AssignStart per level (problem::kAssignStart),
// so that a child's assign() starts from its parent's. On the H100 at the optimum
// (docs/performance.md, "assign() from the parent's"): ATSP ftv33, ftv35 and ftv38
// (sizes 34, 36, 39) searched 1.6-1.9x faster, br17 with lb=1 (size 17) 16% slower,
// where a solve from scratch is short and the starts' global memory traffic is not.
#ifndef PJ_IVM_ASSIGN_START_FROM
#define PJ_IVM_ASSIGN_START_FROM 24
#endif
namespace pj_ivm::device {
constexpr bool kKeepStarts = problem::kAssignStart && problem::kSize >= PJ_IVM_ASSIGN_START_FROM;
}

// The host checks that it sizes the state as this compiler does.
extern "C" __constant__ int pj_ivm_explorer_bytes = pj_ivm::layout::kExplorerBytes;
extern "C" __constant__ int pj_ivm_mask_bytes = sizeof(problem::Mask);
// One row as the compiler lays it out: the host places the rows from this.
extern "C" __constant__ int pj_ivm_level_bytes = sizeof(pj_ivm::layout::Level);
// One AssignStart (0: none kept): the host allocates one per explorer and level.
extern "C" __constant__ int pj_ivm_assign_start_bytes = pj_ivm::device::kKeepStarts ? sizeof(problem::AssignStart) : 0;

namespace pj_ivm::device {

using namespace gpu_search;
using pj_ivm::L;
using pj_ivm::Ref;
using problem::Node;

__device__ __forceinline__ unsigned long long thread_index() {
  return static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
}

}  // namespace pj_ivm::device
