// Python's SIGINT and SIGTERM handlers, kept across a search. The cpu skeleton swaps in
// its own while it searches (runtime/device/kernel_interrupter.hpp: Ctrl-C stops the search and
// the partial result is returned) and puts the old one back with std::signal, which
// would also change its flags (SA_RESTART: a later input() would not see Ctrl-C). The
// exact sigaction from before is restored here.
#pragma once
#include <csignal>

namespace permjit::py {

class KeptSignalHandlers {
 public:
  KeptSignalHandlers() {
    sigaction(SIGINT, nullptr, &int_);
    sigaction(SIGTERM, nullptr, &term_);
  }
  ~KeptSignalHandlers() {
    sigaction(SIGINT, &int_, nullptr);
    sigaction(SIGTERM, &term_, nullptr);
  }
  KeptSignalHandlers(const KeptSignalHandlers&) = delete;
  KeptSignalHandlers& operator=(const KeptSignalHandlers&) = delete;

 private:
  struct sigaction int_ {}, term_ {};
};

}  // namespace permjit::py
