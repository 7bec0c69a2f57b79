// The host side of donation in the ida kernel (runtime/ida/ida_donation.cpp): a node handed
// from warp to warp is found again from the node it was given below (pj_ida_moves_to),
// and the path to a goal below a chain of such nodes is the moves from the item's root
// through every link. The chains here are built on the host from an 8-puzzle's tree,
// laid out as the device lays out its queue slots.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <map>

#include "puzzle8_module.hpp"
#include "runtime/ida/ida_donation.hpp"
#include "runtime/ida/ida_split.hpp"

using namespace permjit;

namespace {

struct Step {
  std::vector<unsigned char> node;
  int g = -1, last = -1;
};

// The board's module, its upper tree and the oracle's last limit: nodes are walked with
// pj_ida_expand within that limit.
struct Walk {
  test::Puzzle8 p8;
  IdaModule ida{p8.mod};
  IdaStart from{start_values(p8.spec)};
  int moves = static_cast<int>(p8.spec.path.moves.size());
  int limit = 0;
  IdaModule::Roots roots{ida, from, 16};
  const PjIdaRoots& rt = roots.get();
  size_t nb = static_cast<size_t>(rt.node_bytes);

  Walk() {
    PjIdaResult oracle = ida.search(PjIdaArgs{from.get(), 1, 1, 16});
    REQUIRE(oracle.found == 1);
    limit = oracle.cost;
  }
  Step root(size_t i) const {
    const auto* r = static_cast<const unsigned char*>(rt.nodes) + i * nb;
    return Step{{r, r + nb}, rt.g[i], rt.last[i]};
  }
  std::vector<Step> children(const Step& s) const {
    std::vector<unsigned char> kids(moves * nb);
    std::vector<int> kg(moves), kl(moves);
    PjIdaCounts c{};
    const int kept = ida.expand(s.node.data(), s.g, s.last, limit, kids.data(), kg.data(), kl.data(), c);
    std::vector<Step> out;
    for (int k = 0; k < kept; ++k) out.push_back(Step{{kids.begin() + k * nb, kids.begin() + (k + 1) * nb}, kg[k], kl[k]});
    return out;
  }
  Step descend(const Step& s, int m) const {
    for (const Step& k : children(s))
      if (k.last == m) return k;
    return Step{};
  }
  // The nodes 1..levels below s on the last depth-first path that reaches that deep (the
  // deepest-right one, as a warp's stack holds it at its top); empty if none does.
  std::vector<Step> path_below(const Step& s, int levels) const {
    if (levels == 0) return {};
    std::vector<Step> kids = children(s);
    for (auto k = kids.rbegin(); k != kids.rend(); ++k) {
      std::vector<Step> rest = path_below(*k, levels - 1);
      if (levels == 1 || !rest.empty()) {
        rest.insert(rest.begin(), *k);
        return rest;
      }
    }
    return {};
  }
  // The first root with a path `levels` deep below it, and that path.
  std::pair<size_t, std::vector<Step>> deep_root(int levels) const {
    for (size_t i = 0; i < rt.count; ++i)
      if (std::vector<Step> p = path_below(root(i), levels); !p.empty() || levels == 0) return {i, p};
    return {rt.count, {}};
  }
  // The moves replayed from s.
  Step replay(Step s, const std::vector<int>& path) const {
    for (int m : path) s = descend(s, m);
    return s;
  }
};

}  // namespace

TEST_CASE("ida moves_to: the moves from a node to one below it, within the limit") {
  Walk w;
  for (int levels : {0, 1, 4, 9}) {
    CAPTURE(levels);
    auto [i, path] = w.deep_root(levels);
    REQUIRE(i < w.rt.count);
    const Step top = w.root(i);
    const Step s = levels ? path.back() : top;
    std::vector<int> moves = w.ida.moves_to(top.node.data(), top.g, top.last, s.node.data(), s.g, w.limit);
    CHECK(static_cast<int>(moves.size()) == s.g - top.g);  // unit moves
    const Step r = w.replay(top, moves);
    CHECK(r.g == s.g);
    CHECK(r.node == s.node);
  }
  // A node that is not below the first root: another root at the same depth.
  const Step first = w.root(0);
  for (size_t i = 1; i < w.rt.count; ++i) {
    const Step other = w.root(i);
    if (other.node == first.node) continue;
    auto no_path = [&] {
      w.ida.moves_to(first.node.data(), first.g, first.last, other.node.data(), other.g, w.limit);
    };
    CHECK_THROWS_AS(no_path(), InternalError);
    CHECK_THROWS_WITH(no_path(), Catch::Contains("no path"));
    break;
  }
}

TEST_CASE("ida donation: the path to a node given down a chain of warps is retraced through every link") {
  Walk w;
  auto [root, path] = w.deep_root(9);
  REQUIRE(root < w.rt.count);
  std::vector<unsigned> every(w.rt.count);
  for (unsigned i = 0; i < w.rt.count; ++i) every[i] = i;
  std::vector<double> ones(w.rt.count, 1.0);
  const IdaItems items = split_roots(w.ida, w.rt, w.moves, every, ones, ones, HUGE_VAL, 0, w.limit, 1);  // the roots
  REQUIRE(items.size() == w.rt.count);

  // A queue as the device leaves it: the node, g, last, item and source of each slot.
  const DonationLayout layout{static_cast<int>(w.nb) + 16, static_cast<int>(w.nb), static_cast<int>(w.nb) + 4,
                              static_cast<int>(w.nb) + 12};
  std::map<unsigned, std::vector<unsigned char>> queue;
  auto put = [&](unsigned slot, const Step& s, unsigned parent) {
    std::vector<unsigned char> d(static_cast<size_t>(layout.bytes), 0);
    std::memcpy(d.data(), s.node.data(), w.nb);
    std::memcpy(d.data() + layout.entry_g, &s.g, 4);
    std::memcpy(d.data() + layout.entry_last, &s.last, 4);
    std::memcpy(d.data() + w.nb + 8, &root, 4);
    std::memcpy(d.data() + layout.parent, &parent, 4);
    queue[slot] = d;
  };
  const DonationReader read = [&](unsigned slot, unsigned char* out) {
    std::memcpy(out, queue.at(slot).data(), queue.at(slot).size());
  };
  // Given 2 levels below the root (slot 0), 3 below that (slot 5), 4 below that (slot 2).
  put(0, path[1], static_cast<unsigned>(root));
  put(5, path[4], PJ_IDA_DONATED | 0u);
  put(2, path[8], PJ_IDA_DONATED | 5u);
  for (unsigned slot : {0u, 5u, 2u}) {
    CAPTURE(slot);
    const Retraced r = retrace_donation(w.ida, items, layout, read, PJ_IDA_DONATED | slot, w.limit);
    const Step want = slot == 0 ? path[1] : slot == 5 ? path[4] : path[8];
    CHECK(r.item == root);
    CHECK(r.g == want.g);
    CHECK(r.last == want.last);
    CHECK(r.node == want.node);
    CHECK(static_cast<int>(r.via.size()) == want.g - w.root(root).g);
    CHECK(w.replay(w.root(root), r.via).node == want.node);
  }
  // An item itself: no link to follow.
  const Retraced plain = retrace_donation(w.ida, items, layout, read, root, w.limit);
  CHECK(plain.item == root);
  CHECK(plain.via.empty());
  // A broken link (a node that is not below its parent) is an internal error, not a wrong path.
  put(7, w.root(root == 0 ? 1 : 0), PJ_IDA_DONATED | 5u);
  CHECK_THROWS_WITH(retrace_donation(w.ida, items, layout, read, PJ_IDA_DONATED | 7u, w.limit),
                    Catch::Contains("internal error"));
}
