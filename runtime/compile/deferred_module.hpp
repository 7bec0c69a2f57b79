// A device unit compiled only when a run first needs it (SkeletonUnits::deferred; the
// ivm skeleton's open-work kernels, docs/decisions.md, "The open-work kernels in a unit
// of their own"): through the module cache, as compile_gpu_module compiles every unit.
// Cached, it is read at construction. Otherwise start() compiles it on a thread of its
// own (a run that may need it starts it a moment into its search, so a stop does not wait on
// NVRTC), or get() does when first called, waiting for it. NVRTC cannot be cancelled:
// wait() and the destructor wait for a compile in flight, whose image the cache keeps.
#pragma once
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "runtime/compile/cache.hpp"
#include "runtime/compile/compile_unit.hpp"
#include "runtime/compile/gpu_compile.hpp"

namespace permjit {

// How a deferred unit came: from the cache, compiled ahead (beside the search) or at
// need (when first asked for); not needed (never compiled).
enum class DeferredHow { not_needed, cached, ahead, at_need };
const char* deferred_how_name(DeferredHow h);

class DeferredGpuModule {
 public:
  DeferredGpuModule(CompileUnit unit, std::string arch, ModuleCache cache);
  ~DeferredGpuModule();
  DeferredGpuModule(const DeferredGpuModule&) = delete;
  DeferredGpuModule& operator=(const DeferredGpuModule&) = delete;

  // Starts the compile on a thread of its own, unless the image is here or started.
  void start();
  // Whether get() returns at once: the image is here, or its compile failed.
  bool ready() const;
  // The image, compiled now if nothing started it; waits for a compile in flight. A
  // failed compile's error (CompileError) is raised here, each time.
  const GpuModuleImage& get();
  // Waits for a compile in flight, raising nothing (a run that ended without the unit).
  void wait();

  DeferredHow how() const { return how_; }
  double compile_s() const;  // NVRTC's seconds (0 from the cache)
  double waited_s() const { return waited_s_; }  // the seconds get() waited, all calls

 private:
  void compile();  // the thread's body

  const CompileUnit unit_;
  const std::string arch_;
  const ModuleCache cache_;
  DeferredHow how_ = DeferredHow::not_needed;
  double waited_s_ = 0;
  mutable std::mutex m_;
  std::condition_variable done_;
  std::optional<GpuModuleImage> image_;
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace permjit
