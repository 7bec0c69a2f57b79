#include "runtime/device/cuda_driver.hpp"

#include <dlfcn.h>

#include <mutex>

namespace permjit::cuda {

namespace {

struct Loaded {
  Api api;
  bool ok = false;
  std::string why;
};

Loaded load() {
  Loaded l;
  void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h) h = dlopen("libcuda.so", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    l.why = "no CUDA driver (libcuda.so.1 not found)";
    return l;
  }
#define PJ_CUDA_LOAD(member, fn, sym)                                           \
  l.api.member = reinterpret_cast<decltype(&::fn)>(dlsym(h, sym));             \
  if (!l.api.member) {                                                         \
    l.why = std::string("the CUDA driver has no ") + sym;                      \
    return l;                                                                  \
  }
  PJ_CUDA_FUNCTIONS(PJ_CUDA_LOAD)
#undef PJ_CUDA_LOAD
  CUresult r = l.api.Init(0);
  if (r != CUDA_SUCCESS) {
    const char* name = nullptr;
    l.api.GetErrorName(r, &name);
    l.why = std::string("cuInit failed: ") + (name ? name : "unknown error");
    return l;
  }
  l.ok = true;
  return l;
}

const Loaded& loaded() {
  static const Loaded l = load();
  return l;
}

}  // namespace

const Api* driver(std::string* why) {
  const Loaded& l = loaded();
  if (!l.ok && why) *why = l.why;
  return l.ok ? &l.api : nullptr;
}

const Api& api() {
  std::string why;
  const Api* a = driver(&why);
  if (!a) throw Error(why);
  return *a;
}

void check(CUresult r, const std::string& what) {
  if (r == CUDA_SUCCESS) return;
  const char* name = nullptr;
  const char* text = nullptr;
  const Api& a = api();
  a.GetErrorName(r, &name);
  a.GetErrorString(r, &text);
  throw Error(what + ": " + (name ? name : "CUDA error " + std::to_string(r)) + " (" + (text ? text : "") + ")");
}

size_t static_shared_bytes(CUfunction f) {
  int bytes = 0;
  check(api().FuncGetAttribute(&bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f), "cuFuncGetAttribute(static shared memory)");
  return static_cast<size_t>(bytes);
}

void allow_dynamic_shared(CUfunction f, size_t dynamic_bytes, const std::string& name) {
  constexpr size_t kWithoutOptIn = 48 * 1024;
  if (static_shared_bytes(f) + dynamic_bytes <= kWithoutOptIn) return;
  check(api().FuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(dynamic_bytes)),
        "cuFuncSetAttribute(max dynamic shared memory of " + name + ")");
}

int device_count(std::string* why) {
  const Api* a = driver(why);
  if (!a) return 0;
  int count = 0;
  check(a->DeviceGetCount(&count), "cuDeviceGetCount");
  if (count == 0 && why) *why = "the CUDA driver sees no device";
  return count;
}

Device describe_device(int ordinal) {
  const Api& a = api();
  Device d;
  d.ordinal = ordinal;
  check(a.DeviceGet(&d.handle, ordinal), "cuDeviceGet");
  char name[256] = {};
  check(a.DeviceGetName(name, sizeof name, d.handle), "cuDeviceGetName");
  d.name = name;
  auto attr = [&](CUdevice_attribute at) {
    int v = 0;
    check(a.DeviceGetAttribute(&v, at, d.handle), "cuDeviceGetAttribute");
    return v;
  };
  d.sm_count = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  d.cc_major = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  d.cc_minor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  d.max_threads_per_sm = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
  d.max_shared_per_block = attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  d.max_shared_per_sm = attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
  d.reserved_shared_per_block = attr(CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK);
  check(a.DeviceTotalMem(&d.total_memory, d.handle), "cuDeviceTotalMem");
  return d;
}

bool first_device(Device& d, std::string* why) {
  if (device_count(why) == 0) return false;
  d = describe_device(0);
  return true;
}

Context::Context(const Device& d) : dev_(d.handle) {
  check(api().PrimaryCtxRetain(&ctx_, dev_), "cuDevicePrimaryCtxRetain");
  check(api().CtxSetCurrent(ctx_), "cuCtxSetCurrent");
}

Context::~Context() { api().PrimaryCtxRelease(dev_); }

Module::Module(const std::string& image) { check(api().ModuleLoadData(&mod_, image.data()), "cuModuleLoadData"); }

Module::~Module() {
  if (mod_) api().ModuleUnload(mod_);
}

CUfunction Module::function(const char* name) const {
  CUfunction f = nullptr;
  check(api().ModuleGetFunction(&f, mod_, name), std::string("cuModuleGetFunction(") + name + ")");
  return f;
}

CUdeviceptr Module::global(const char* name, size_t* bytes) const {
  CUdeviceptr p = 0;
  check(api().ModuleGetGlobal(&p, bytes, mod_, name), std::string("cuModuleGetGlobal(") + name + ")");
  return p;
}

int Module::read_int(const char* name) const {
  CUdeviceptr p = 0;
  size_t bytes = 0;
  check(api().ModuleGetGlobal(&p, &bytes, mod_, name), std::string("cuModuleGetGlobal(") + name + ")");
  int v = 0;
  check(api().MemcpyDtoH(&v, p, sizeof v), std::string("reading ") + name);
  return v;
}

Buffer::Buffer(size_t bytes) : bytes_(bytes) {
  check(api().MemAlloc(&ptr_, bytes ? bytes : 1), "cuMemAlloc(" + std::to_string(bytes) + " bytes)");
}

Buffer::~Buffer() {
  if (ptr_) api().MemFree(ptr_);
}

void Buffer::upload(const void* src, size_t bytes, size_t offset) {
  if (bytes) check(api().MemcpyHtoD(ptr_ + offset, src, bytes), "cuMemcpyHtoD");
}

void Buffer::download(void* dst, size_t bytes, size_t offset) const {
  if (bytes) check(api().MemcpyDtoH(dst, ptr_ + offset, bytes), "cuMemcpyDtoH");
}

void Buffer::zero() { check(api().MemsetD8(ptr_, 0, bytes_), "cuMemsetD8"); }

EventTimer::EventTimer() {
  check(api().EventCreate(&a_, CU_EVENT_DEFAULT), "cuEventCreate");
  check(api().EventCreate(&b_, CU_EVENT_DEFAULT), "cuEventCreate");
}

EventTimer::~EventTimer() {
  api().EventDestroy(a_);
  api().EventDestroy(b_);
}

void EventTimer::start() { check(api().EventRecord(a_, nullptr), "cuEventRecord"); }

double EventTimer::stop_seconds() {
  stop();
  check(api().EventSynchronize(b_), "cuEventSynchronize");
  return seconds();
}

void EventTimer::stop() { check(api().EventRecord(b_, nullptr), "cuEventRecord"); }

bool EventTimer::ended() {
  const CUresult r = api().EventQuery(b_);
  if (r == CUDA_ERROR_NOT_READY) return false;
  check(r, "cuEventQuery");
  return true;
}

double EventTimer::seconds() {
  float ms = 0;
  check(api().EventElapsedTime(&ms, a_, b_), "cuEventElapsedTime");
  return ms / 1000.0;
}

}  // namespace permjit::cuda
