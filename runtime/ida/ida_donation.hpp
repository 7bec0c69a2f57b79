// The host's side of donation in the ida kernel (templates/gpu_ida.cuh, --balance
// donate): where a donated node's fields lie, and the path to a goal found below one.
#pragma once
#include <functional>
#include <vector>

#include "runtime/compile/ida_module.hpp"
#include "runtime/ida/ida_split.hpp"
#include "templates/ida_abi.h"

namespace permjit {

// Where the fields of a donation (gpu_ida::Donation) lie, as the device compiler laid
// them out: the node at 0, its g and last move, the source it was found below.
struct DonationLayout {
  int bytes = 0, entry_g = 0, entry_last = 0, parent = 0;
};

// Copies the donation in a queue slot (layout.bytes bytes) to `out`.
using DonationReader = std::function<void(unsigned slot, unsigned char* out)>;

// A source (PjIdaDeviceCounts::solved_root, Donation::parent) that is a queue slot.
inline bool donated(unsigned long long source) { return source != ~0ull && (source & PJ_IDA_DONATED) != 0; }

// The item a donated node descends from, the moves from that item's root to the node,
// and the node (bytes, g, last).
struct Retraced {
  size_t item = 0;
  std::vector<int> via;
  std::vector<unsigned char> node;
  int g = 0, last = -1;
};

// Follows the chain of donations from `source` back to an item: each node was given from
// the stack of a warp searching below its parent, and module.moves_to retraces the few
// levels between the two (throws if a link cannot be retraced).
Retraced retrace_donation(const IdaModule& module, const IdaItems& items, const DonationLayout& layout,
                          const DonationReader& read, unsigned long long source, int limit);

}  // namespace permjit
