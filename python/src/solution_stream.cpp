#include "solution_stream.hpp"

#include "kept_signal_handlers.hpp"

namespace permjit::py {

SolutionStream::SolutionStream(SolveOptions opts) {
  opts.list_sink = [this](std::span<const int> perm, long long objective) { return take(perm, objective); };
  if (!opts.list && !opts.all_optimal) opts.list = 0;  // every solution
  thread_ = std::thread([this, opts = std::move(opts)] {
    std::string json;
    std::exception_ptr error;
    try {
      KeptSignalHandlers keep;
      json = format_json(solve(opts));
    } catch (...) {
      error = std::current_exception();
    }
    std::lock_guard<std::mutex> g(m_);
    json_ = std::move(json);
    error_ = error;
    done_ = true;
    cv_.notify_all();
  });
}

SolutionStream::~SolutionStream() { close(); }

bool SolutionStream::take(std::span<const int> perm, long long objective) {
  std::unique_lock<std::mutex> g(m_);
  cv_.wait(g, [&] { return closed_ || queue_.size() < kCapacity; });
  if (closed_) return false;
  queue_.emplace_back(std::vector<int>(perm.begin(), perm.end()), objective);
  cv_.notify_all();
  return true;
}

std::optional<SolutionStream::Solution> SolutionStream::next() {
  std::unique_lock<std::mutex> g(m_);
  cv_.wait(g, [&] { return !queue_.empty() || done_; });
  if (queue_.empty()) return std::nullopt;
  Solution s = std::move(queue_.front());
  queue_.pop_front();
  cv_.notify_all();
  return s;
}

void SolutionStream::close() {
  {
    std::lock_guard<std::mutex> g(m_);
    closed_ = true;
    queue_.clear();
    cv_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
}

std::string SolutionStream::result_json() {
  std::unique_lock<std::mutex> g(m_);
  cv_.wait(g, [&] { return done_; });
  if (error_) std::rethrow_exception(error_);
  return json_;
}

}  // namespace permjit::py
