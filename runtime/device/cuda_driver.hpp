// The CUDA driver API, loaded at run time with dlopen: permjit starts and runs the CPU
// backend on machines without a driver, and says why when there is no GPU. Every call
// goes through check(), which throws cuda::Error naming the call and the CUDA error.
#pragma once
#include <cuda.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace permjit::cuda {

#define PJ_CUDA_FUNCTIONS(X)                                   \
  X(Init, cuInit, "cuInit")                                    \
  X(DeviceGetCount, cuDeviceGetCount, "cuDeviceGetCount")      \
  X(DeviceGet, cuDeviceGet, "cuDeviceGet")                     \
  X(DeviceGetName, cuDeviceGetName, "cuDeviceGetName")         \
  X(DeviceGetAttribute, cuDeviceGetAttribute, "cuDeviceGetAttribute") \
  X(DeviceTotalMem, cuDeviceTotalMem, "cuDeviceTotalMem_v2")   \
  X(PrimaryCtxRetain, cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain") \
  X(PrimaryCtxRelease, cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2") \
  X(CtxSetCurrent, cuCtxSetCurrent, "cuCtxSetCurrent")         \
  X(CtxSynchronize, cuCtxSynchronize, "cuCtxSynchronize")      \
  X(CtxSetLimit, cuCtxSetLimit, "cuCtxSetLimit")               \
  X(CtxGetLimit, cuCtxGetLimit, "cuCtxGetLimit")               \
  X(ModuleLoadData, cuModuleLoadData, "cuModuleLoadData")      \
  X(ModuleUnload, cuModuleUnload, "cuModuleUnload")            \
  X(ModuleGetFunction, cuModuleGetFunction, "cuModuleGetFunction") \
  X(ModuleGetGlobal, cuModuleGetGlobal, "cuModuleGetGlobal_v2") \
  X(FuncGetAttribute, cuFuncGetAttribute, "cuFuncGetAttribute") \
  X(FuncSetAttribute, cuFuncSetAttribute, "cuFuncSetAttribute") \
  X(MemAlloc, cuMemAlloc, "cuMemAlloc_v2")                     \
  X(MemFree, cuMemFree, "cuMemFree_v2")                        \
  X(MemcpyHtoD, cuMemcpyHtoD, "cuMemcpyHtoD_v2")               \
  X(MemcpyDtoH, cuMemcpyDtoH, "cuMemcpyDtoH_v2")               \
  X(MemsetD8, cuMemsetD8, "cuMemsetD8_v2")                     \
  X(MemGetInfo, cuMemGetInfo, "cuMemGetInfo_v2")               \
  X(LaunchKernel, cuLaunchKernel, "cuLaunchKernel")            \
  X(EventCreate, cuEventCreate, "cuEventCreate")               \
  X(EventRecord, cuEventRecord, "cuEventRecord")               \
  X(EventSynchronize, cuEventSynchronize, "cuEventSynchronize") \
  X(EventQuery, cuEventQuery, "cuEventQuery")                 \
  X(EventElapsedTime, cuEventElapsedTime, "cuEventElapsedTime_v2") \
  X(EventDestroy, cuEventDestroy, "cuEventDestroy_v2")         \
  X(StreamCreate, cuStreamCreate, "cuStreamCreate")            \
  X(StreamDestroy, cuStreamDestroy, "cuStreamDestroy_v2")      \
  X(StreamSynchronize, cuStreamSynchronize, "cuStreamSynchronize") \
  X(MemcpyHtoDAsync, cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2") \
  X(MemAllocHost, cuMemAllocHost, "cuMemAllocHost_v2")         \
  X(MemFreeHost, cuMemFreeHost, "cuMemFreeHost")               \
  X(OccupancyMaxActiveBlocksPerMultiprocessor, cuOccupancyMaxActiveBlocksPerMultiprocessor, \
    "cuOccupancyMaxActiveBlocksPerMultiprocessor")             \
  X(MemcpyDtoHAsync, cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2") \
  X(MemHostAlloc, cuMemHostAlloc, "cuMemHostAlloc")            \
  X(MemHostGetDevicePointer, cuMemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2") \
  X(GetErrorName, cuGetErrorName, "cuGetErrorName")            \
  X(GetErrorString, cuGetErrorString, "cuGetErrorString")

struct Api {
#define PJ_CUDA_MEMBER(member, fn, sym) decltype(&::fn) member = nullptr;
  PJ_CUDA_FUNCTIONS(PJ_CUDA_MEMBER)
#undef PJ_CUDA_MEMBER
};

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The driver, loaded and initialised once; nullptr (and `why`) when there is none.
const Api* driver(std::string* why = nullptr);
// Throws Error("what: CUDA_ERROR_NAME (description)") unless r is CUDA_SUCCESS.
void check(CUresult r, const std::string& what);
// Shorthand for the loaded API; throws if the driver is not available.
const Api& api();

struct Device {
  int ordinal = 0;
  CUdevice handle = 0;
  std::string name;
  int sm_count = 0, cc_major = 0, cc_minor = 0, max_threads_per_sm = 0;
  int max_shared_per_block = 0;  // bytes a block may opt in to
  int max_shared_per_sm = 0;     // bytes of shared memory an SM holds
  int reserved_shared_per_block = 0;  // bytes the system takes from each block's share
  size_t total_memory = 0;
  std::string arch() const { return "sm_" + std::to_string(cc_major) + std::to_string(cc_minor); }
};

// The shared memory a kernel declares itself (__shared__ variables), in bytes.
size_t static_shared_bytes(CUfunction f);
// Lets `f` launch with `dynamic_bytes` of dynamic shared memory. A block whose static
// and dynamic shared memory together pass 48 KiB must opt in (cuFuncSetAttribute), or
// the launch fails with CUDA_ERROR_INVALID_VALUE; `name` is the kernel's, for errors.
void allow_dynamic_shared(CUfunction f, size_t dynamic_bytes, const std::string& name);

// The first device, or false with the reason (no driver, no device).
bool first_device(Device& out, std::string* why);
// The devices the driver sees (0, and the reason, when none or no driver).
int device_count(std::string* why);
// Device `ordinal` (< device_count()) and its properties.
Device describe_device(int ordinal);

// The device's primary context, current on this thread while the object lives.
class Context {
 public:
  explicit Context(const Device& d);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  // For other host threads that issue work on this device (cuCtxSetCurrent).
  CUcontext handle() const { return ctx_; }

 private:
  CUdevice dev_;
  CUcontext ctx_ = nullptr;
};

class Module {
 public:
  explicit Module(const std::string& image);  // cubin or PTX
  ~Module();
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;
  CUfunction function(const char* name) const;
  // Reads a __device__/__constant__ int of the module.
  int read_int(const char* name) const;
  // The address and size of a __device__/__constant__ variable of the module.
  CUdeviceptr global(const char* name, size_t* bytes) const;

 private:
  CUmodule mod_ = nullptr;
};

class Buffer {
 public:
  explicit Buffer(size_t bytes);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  CUdeviceptr ptr() const { return ptr_; }
  size_t bytes() const { return bytes_; }
  void upload(const void* src, size_t bytes, size_t offset = 0);
  void download(void* dst, size_t bytes, size_t offset = 0) const;
  void zero();

 private:
  CUdeviceptr ptr_ = 0;
  size_t bytes_ = 0;
};

// Elapsed device time between two points on the default stream.
class EventTimer {
 public:
  EventTimer();
  ~EventTimer();
  void start();
  double stop_seconds();  // synchronises
  // The same in steps, for a host that does other things while it waits: record the
  // end, ask whether the work before it is done (a fault in it is thrown), read the time.
  void stop();
  bool ended();
  double seconds();

 private:
  CUevent a_ = nullptr, b_ = nullptr;
};

}  // namespace permjit::cuda
