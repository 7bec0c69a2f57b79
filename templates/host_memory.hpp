// How much host memory a cpu module may fill with a frontier. Linux grants allocations
// it cannot back (overcommit): a frontier built level by level grew until the kernel
// killed the process, where std::bad_alloc never came. The build counts its nodes
// against a quarter of the memory available when it starts (a level's threads join
// their parts into a copy, vectors grow by doubling, and the search needs the rest),
// and stops with std::bad_alloc, which the entry point returns as its out-of-memory
// code: the host's error at --split-depth.
#pragma once
#include <cstddef>
#include <cstdio>
#include <unistd.h>

namespace pj {

// MemAvailable from /proc/meminfo (free memory and the caches the kernel can drop), else
// the free pages; 0 when neither is known (no limit is applied then).
inline std::size_t available_host_bytes() {
  if (std::FILE* f = std::fopen("/proc/meminfo", "r")) {
    char line[256];
    unsigned long long kib = 0;
    bool found = false;
    while (!found && std::fgets(line, sizeof line, f)) found = std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1;
    std::fclose(f);
    if (found) return static_cast<std::size_t>(kib) * 1024;
  }
  const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) : 0;
}

// How many objects of `bytes` each a frontier may hold (SIZE_MAX when unknown).
inline std::size_t frontier_capacity(std::size_t bytes) {
  const std::size_t avail = available_host_bytes();
  return avail == 0 ? static_cast<std::size_t>(-1) : avail / 4 / bytes;
}

}  // namespace pj
