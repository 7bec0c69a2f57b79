#include "dsl/load_positions.hpp"

#include <string>
#include <vector>

namespace permjit {

namespace {

constexpr const char* kHint =
    "positions = \"order\" with [derived] order = { type = \"int[n]\", index = [\"i\"], value = \"...\" }";

// The table's values, once computed: a permutation of 0..size-1, or an error naming the
// first element that breaks it.
bool read_order(const DataItem& item, const Loc& at, int size, std::vector<int>& order, Diagnostics& d) {
  std::vector<int> seen(static_cast<size_t>(size), -1);
  for (size_t i = 0; i < item.values.size(); ++i) {
    const int64_t v = item.values[i];
    auto refuse = [&](const std::string& why) {
      d.error(at, "branch.positions: " + item.name + "[" + std::to_string(i) + "] = " + std::to_string(v) + why,
              "the table must hold each position of the permutation once");
      return false;
    };
    if (v < 0 || v >= size) return refuse(" is not a position (0.." + std::to_string(size - 1) + ")");
    if (seen[static_cast<size_t>(v)] >= 0)
      return refuse(" repeats " + item.name + "[" + std::to_string(seen[static_cast<size_t>(v)]) + "]");
    seen[static_cast<size_t>(v)] = static_cast<int>(i);
    order.push_back(static_cast<int>(v));
  }
  return true;
}

}  // namespace

void read_positions(const toml::table& root, ProblemSpec& spec, Diagnostics& d, const TomlReading& r) {
  const toml::table* branch = root.get_as<toml::table>("branch");
  const toml::node* n = branch ? branch->get("positions") : nullptr;
  if (!n) return;
  const Loc at = r.at(*n);
  const auto* name = n->as_string();
  if (!name) {
    d.error(at, "branch.positions must name a [derived] table, in a string", kHint);
    return;
  }
  const std::string table = name->get();
  const DataItem* item = nullptr;
  for (const DataItem& x : spec.derived)
    if (x.name == table) item = &x;
  if (!item) {
    d.error(at, "branch.positions names '" + table + "', which is not a [derived] table", kHint);
    return;
  }
  if (item->dim_exprs.size() != 1) {
    d.error(at, "branch.positions: derived '" + table + "' must have one dimension, the problem's size; it has " +
                    std::to_string(item->dim_exprs.size()),
            kHint);
    return;
  }
  // A value map and a group of the matrix's symmetries act on the problem's positions;
  // position_automorphisms act on the search's, which is the order the tables are in.
  if (spec.symmetry || spec.symmetry_group) {
    d.error(at, "branch.positions reorders the positions that [symmetry] acts on; the two cannot be used together",
            "leave out one of them, or declare symmetry.position_automorphisms of tables in the search's order");
    return;
  }
  ProblemSpec::PositionOrder p{table, at, {}};
  // Without the instance (`check` alone) the table is not computed: only its shape is known.
  if (!item->values.empty() && spec.size > 0) {
    if (item->dims[0] != spec.size) {
      d.error(at, "branch.positions: derived '" + table + "' has " + std::to_string(item->dims[0]) +
                      " elements; the problem's size is " + std::to_string(spec.size),
              kHint);
      return;
    }
    if (!read_order(*item, at, spec.size, p.order, d)) return;
  }
  spec.positions = std::move(p);
}

}  // namespace permjit
