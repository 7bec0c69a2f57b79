#include "runtime/compile/deferred_module.hpp"

#include <chrono>

namespace permjit {

const char* deferred_how_name(DeferredHow h) {
  switch (h) {
    case DeferredHow::cached: return "cached";
    case DeferredHow::ahead: return "ahead";
    case DeferredHow::at_need: return "at need";
    case DeferredHow::not_needed: break;
  }
  return "not needed";
}

DeferredGpuModule::DeferredGpuModule(CompileUnit unit, std::string arch, ModuleCache cache)
    : unit_(std::move(unit)), arch_(std::move(arch)), cache_(std::move(cache)) {
  image_ = cached_gpu_module(unit_, arch_, cache_);
  if (image_) how_ = DeferredHow::cached;
}

DeferredGpuModule::~DeferredGpuModule() { wait(); }

void DeferredGpuModule::compile() {
  std::optional<GpuModuleImage> image;
  std::exception_ptr error;
  try {
    image = compile_gpu_module(unit_, arch_, cache_);
  } catch (...) {
    error = std::current_exception();
  }
  std::lock_guard<std::mutex> lock(m_);
  image_ = std::move(image);
  error_ = error;
  done_.notify_all();
}

void DeferredGpuModule::start() {
  std::lock_guard<std::mutex> lock(m_);
  if (image_ || error_ || thread_.joinable()) return;
  how_ = DeferredHow::ahead;
  thread_ = std::thread([this] { compile(); });
}

bool DeferredGpuModule::ready() const {
  std::lock_guard<std::mutex> lock(m_);
  return image_ || error_;
}

const GpuModuleImage& DeferredGpuModule::get() {
  const auto t0 = std::chrono::steady_clock::now();
  {
    std::lock_guard<std::mutex> lock(m_);
    if (!image_ && !error_ && !thread_.joinable()) {
      how_ = DeferredHow::at_need;
      thread_ = std::thread([this] { compile(); });
    }
  }
  std::unique_lock<std::mutex> lock(m_);
  done_.wait(lock, [this] { return image_ || error_; });
  waited_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (error_) std::rethrow_exception(error_);
  return *image_;
}

void DeferredGpuModule::wait() {
  if (thread_.joinable()) thread_.join();
}

double DeferredGpuModule::compile_s() const {
  std::lock_guard<std::mutex> lock(m_);
  return image_ && !image_->cache_hit ? image_->nvrtc_s + image_->link_s : 0.0;
}

}  // namespace permjit
