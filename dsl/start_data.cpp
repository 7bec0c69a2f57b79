#include "dsl/start_data.hpp"

#include <climits>
#include <set>

#include "dsl/instance.hpp"

namespace permjit {

namespace {
void reads_of(const Expr* e, std::set<const Symbol*>& out) {
  if (!e) return;
  if (e->sym) out.insert(e->sym);
  for (const auto& a : e->args) reads_of(a.get(), out);
}

// What every part of the source but root() reads: those items must stay compiled in.
std::set<const Symbol*> read_beyond_root(const ProblemSpec& spec) {
  std::set<const Symbol*> out;
  const PathSpec& p = spec.path;
  reads_of(p.goal.get(), out);
  reads_of(p.heuristic.get(), out);
  for (const auto& m : p.moves) {
    for (const Expr* e : {m.when.get(), m.swap_a.get(), m.swap_b.get()}) reads_of(e, out);
    for (const auto& [name, e] : m.set) reads_of(e.get(), out);
  }
  reads_of(spec.size_expr.get(), out);
  for (const auto* items : {&spec.data, &spec.derived})
    for (const auto& d : *items) {
      reads_of(d.value.get(), out);
      for (const auto& e : d.dim_exprs) reads_of(e.get(), out);
    }
  for (const auto& v : spec.state)
    for (const auto& e : v.dim_exprs) reads_of(e.get(), out);
  return out;
}

const DataItem& item_named(const ProblemSpec& spec, const std::string& name) {
  for (const auto& d : spec.data)
    if (d.name == name) return d;
  PJ_INTERNAL_ASSERT(false, "no data item " + name);
}

// Whether the source holds `item` (emit_constants, emit_data): every scalar, and every
// array that some expression reads.
bool compiled_in(const ProblemSpec& spec, const DataItem& item, const std::set<const Symbol*>& read) {
  return item.dim_exprs.empty() || read.count(&spec.symbols.at(item.name));
}

bool is_start(const ProblemSpec& spec, const std::string& name) {
  for (const auto& s : spec.path.start_data)
    if (s == name) return true;
  return false;
}

// One start item's values as the int arrays root() reads; errors at `where`.
std::vector<int> as_ints(const DataItem& item, const Loc& where, Diagnostics& d) {
  std::vector<int> out;
  for (int64_t v : item.values) {
    if (v < INT_MIN || v > INT_MAX) {
      d.error(where, "start data '" + item.name + "' holds " + std::to_string(v) + ", which does not fit 32 bits");
      return {};
    }
    out.push_back(static_cast<int>(v));
  }
  return out;
}
}  // namespace

void mark_start_data(ProblemSpec& spec) {
  if (spec.goal != Goal::path) return;
  std::set<const Symbol*> beyond = read_beyond_root(spec), at_root;
  for (const auto& v : spec.state) reads_of(v.init.get(), at_root);
  for (const auto& d : spec.data) {
    auto it = spec.symbols.find(d.name);
    if (it == spec.symbols.end() || d.dim_exprs.empty() || beyond.count(&it->second)) continue;
    if (d.name != spec.path.start_item && !at_root.count(&it->second)) continue;
    spec.path.start_data.push_back(d.name);
    it->second.values = nullptr;  // dims stay: indexing is still checked and clamped
  }
}

StartValues start_values(const ProblemSpec& spec) {
  StartValues out;
  Diagnostics d;
  for (const auto& name : spec.path.start_data) out.push_back(as_ints(item_named(spec, name), spec.path.start_loc, d));
  if (d.has_errors()) throw UserErrors(std::move(d));
  return out;
}

StartValues read_start_record(ProblemSpec& spec, int record) {
  // The compiled-in items as the source has them, to compare with the record's.
  std::set<const Symbol*> read = read_beyond_root(spec);
  for (const auto& v : spec.state) reads_of(v.init.get(), read);
  std::vector<std::pair<std::string, std::vector<int64_t>>> compiled;
  for (const auto& d : spec.data)
    if (!is_start(spec, d.name) && compiled_in(spec, d, read)) compiled.push_back({d.name, d.values});
  const int generated_from = spec.instance_record;
  Diagnostics d;
  spec.instance_record = record;
  bool ok = load_instance(spec, d);
  for (const auto& name : spec.path.start_data) spec.symbols.at(name).values = nullptr;
  if (!ok) throw UserErrors(std::move(d));
  Loc line{read_source(spec.instance_path), record, 1};
  for (const auto& [name, values] : compiled)
    if (item_named(spec, name).values != values)
      d.error(line, "record " + std::to_string(record) + " has another '" + name + "' than record " +
                        std::to_string(generated_from) + ", which the module was generated for",
              "only start data can change from record to record; '" + name + "' is compiled into the module");
  if (const DataItem* start = spec.find_data(spec.path.start_item); start && is_start(spec, start->name))
    check_start_permutation(spec, *start, line, d);
  if (d.has_errors()) throw UserErrors(std::move(d));
  StartValues out;
  for (const auto& name : spec.path.start_data) out.push_back(as_ints(item_named(spec, name), line, d));
  if (d.has_errors()) throw UserErrors(std::move(d));
  return out;
}

void check_start_permutation(const ProblemSpec& spec, const DataItem& item, const Loc& where, Diagnostics& d) {
  if (static_cast<int>(item.values.size()) != spec.size) {
    d.error(where, "the start permutation '" + item.name + "' has " + std::to_string(item.values.size()) +
                       " values; the problem's size is " + std::to_string(spec.size));
    return;
  }
  std::set<int64_t> seen;
  for (int64_t v : item.values) {
    if (v < 0 || v >= spec.size || !seen.insert(v).second) {
      d.error(where, "the instance's '" + item.name + "' is not a permutation of 0.." + std::to_string(spec.size - 1) +
                         " (value " + std::to_string(v) + ")",
              "instance " + spec.instance_path +
                  (spec.instance_record > 0 ? ", record " + std::to_string(spec.instance_record) : ""));
      return;
    }
  }
}

}  // namespace permjit
