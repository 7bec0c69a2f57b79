// MPI started by the first search that needs it and finished when it ends (also when it
// throws), so that `permjit` without mpirun never touches MPI. Compiled only where CMake
// found MPI (skeletons/cpu_mpi.cpp, ivm/ivm_mpi.cpp).
#pragma once
// The C API only: the C++ bindings are deprecated and warn under -Wextra.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <stdexcept>

namespace permjit {

class MpiSession {
 public:
  // `level`: the threads that call MPI (MPI_THREAD_FUNNELED: one; MPI_THREAD_MULTIPLE: any).
  explicit MpiSession(int level) {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, level, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (provided < level) {
      MPI_Finalize();
      throw std::runtime_error(
          "this MPI library does not let several threads of a process call it (MPI_THREAD_MULTIPLE), which rank 0 "
          "of the ivm skeleton needs");
    }
  }
  ~MpiSession() { MPI_Finalize(); }
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  int rank = 0, size = 1;
};

}  // namespace permjit
