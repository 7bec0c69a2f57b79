#include "runtime/ida/ida_donation.hpp"

#include <cstring>

namespace permjit {

Retraced retrace_donation(const IdaModule& module, const IdaItems& items, const DonationLayout& layout,
                          const DonationReader& read, unsigned long long source, int limit) {
  std::vector<std::vector<unsigned char>> chain;  // from the solved donation up to the one an item gave
  while (donated(source)) {
    std::vector<unsigned char> d(static_cast<size_t>(layout.bytes));
    read(static_cast<unsigned>(source & ~static_cast<unsigned long long>(PJ_IDA_DONATED)), d.data());
    unsigned parent = 0;
    std::memcpy(&parent, d.data() + layout.parent, sizeof parent);
    chain.push_back(std::move(d));
    source = parent;
  }
  Retraced out;
  out.item = static_cast<size_t>(source);
  out.via = items.moves_to(out.item);
  const size_t nb = static_cast<size_t>(items.node_bytes);
  out.node.assign(items.nodes.begin() + static_cast<std::ptrdiff_t>(out.item * nb),
                  items.nodes.begin() + static_cast<std::ptrdiff_t>((out.item + 1) * nb));
  out.g = items.g.at(out.item);
  out.last = items.last.at(out.item);
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    int g = 0, last = 0;
    std::memcpy(&g, it->data() + layout.entry_g, sizeof g);
    std::memcpy(&last, it->data() + layout.entry_last, sizeof last);
    std::vector<int> seg = module.moves_to(out.node.data(), out.g, out.last, it->data(), g, limit);
    out.via.insert(out.via.end(), seg.begin(), seg.end());
    out.node.assign(it->begin(), it->begin() + static_cast<std::ptrdiff_t>(nb));
    out.g = g;
    out.last = last;
  }
  return out;
}

}  // namespace permjit
