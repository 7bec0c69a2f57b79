// The `ivm` skeleton over MPI ranks, one GPU each (`mpirun -np K permjit solve ...
// --skeleton ivm`): what run_ivm needs of the other processes. Rank 0 holds the one
// exchange (runtime/ivm/ivm_exchange.hpp) and answers the other ranks' workers for it, a
// thread per rank; a worker on another rank talks to it through an IvmPeers client.
// In one process there are no other ranks: the base class says so.
#pragma once
#include <memory>
#include <vector>

#include "runtime/ivm/ivm_device.hpp"
#include "runtime/ivm/ivm_exchange.hpp"

namespace permjit {

struct SkeletonRun;

// What rank 0 decides and every rank must use alike.
struct IvmShared {
  unsigned long long explorers = 0, trigger = 0;
  int start_best = 0;
  int ok = 0;  // 0: rank 0 failed before the search; the others return
};

class IvmRanks {
 public:
  virtual ~IvmRanks() = default;
  virtual int rank() const { return 0; }
  virtual int size() const { return 1; }
  // The GPU of this rank (MPI: its local rank among the ranks of its host).
  virtual int local_gpu(int /*devices*/) const { return 0; }
  // Rank 0's values to every rank.
  virtual void share(IvmShared& /*s*/) {}
  // Rank > 0: the exchange on rank 0, as its worker sees it.
  virtual IvmPeers* client() { return nullptr; }
  // Rank 0: answer the other ranks' workers (workers 1..size-1) until they are done.
  virtual void serve(IvmExchange& /*exchange*/) {}
  // Rank 0, after the search: the other ranks' last results and statistics.
  virtual void collect(std::vector<PjGpuResults>& /*finals*/, std::vector<IvmDeviceStats>& /*stats*/) {}
  // Rank 0, after collect: the messages its threads received and sent for the other
  // ranks, and the seconds they spent answering (not waiting) -- docs/scale.md.
  virtual unsigned long long messages() const { return 0; }
  virtual double busy_seconds() const { return 0; }
  // Rank > 0, after its worker ends: its results and statistics to rank 0.
  virtual void done(const PjGpuResults& /*results*/, const IvmDeviceStats& /*stats*/) {}
};

// The ivm search with `ranks` (one process: IvmRanks{}).
void run_ivm(SkeletonRun& run, IvmRanks& ranks);

// MPI: runs run_ivm on every rank (runtime/ivm/ivm_mpi.cpp; without MPI, says so).
void run_ivm_mpi(SkeletonRun& run);

}  // namespace permjit
