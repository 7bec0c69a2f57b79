#include "dsl/run_time_data.hpp"

#include <algorithm>
#include <bit>

namespace permjit {

std::pair<int64_t, int64_t> value_class(const std::vector<int64_t>& values) {
  if (values.empty()) return {0, 0};
  auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  // The largest magnitude to hold: hi itself, or for negatives -lo - 1 and hi.
  const uint64_t reach = *lo >= 0 ? static_cast<uint64_t>(*hi)
                                  : std::max(static_cast<uint64_t>(-(*lo + 1)), static_cast<uint64_t>(std::max<int64_t>(*hi, 0)));
  const int k = std::bit_width(reach);  // reach < 2^k
  const int64_t top = k >= 63 ? INT64_MAX : (int64_t{1} << k) - 1;
  return {*lo >= 0 ? 0 : -top - 1, top};
}

namespace {
// Whether `e` reads one of `names`. Expressions are at most a few hundred levels deep
// (the parser's limit), so recursion is safe here.
bool reads_any(const Expr& e, const std::set<std::string>& names) {
  if (e.sym && (e.kind == Expr::Kind::name || e.kind == Expr::Kind::index) && names.count(e.sym->name)) return true;
  for (const auto& a : e.args)
    if (a && reads_any(*a, names)) return true;
  for (const Expr* x : chain_parts(e))
    if (reads_any(*x, names)) return true;
  return false;
}
}  // namespace

std::set<std::string> instance_arrays(const ProblemSpec& spec) {
  std::set<std::string> out;
  for (const DataItem& d : spec.data)
    if (!d.dims.empty()) out.insert(d.name);
  // Until nothing changes: [derived] need not list an item after those it reads.
  for (bool grew = true; grew;) {
    grew = false;
    for (const DataItem& d : spec.derived)
      if (!d.dims.empty() && d.value && !out.count(d.name) && reads_any(*d.value, out)) grew = out.insert(d.name).second;
  }
  for (const auto& s : spec.path.start_data) out.erase(s);
  return out;
}

void keep_data_at_run_time(ProblemSpec& spec) {
  for (const std::string& name : instance_arrays(spec)) {
    Symbol& s = spec.symbols.at(name);
    if (!s.values) continue;  // not loaded (check without an instance)
    s.run_time_range = value_class(*s.values);
    s.values = nullptr;
  }
}

void compile_data_in(ProblemSpec& spec) {
  for (const std::string& name : instance_arrays(spec)) {
    Symbol& s = spec.symbols.at(name);
    if (!s.run_time_range) continue;
    s.values = &spec.find_data(name)->values;
    s.run_time_range.reset();
  }
}

}  // namespace permjit
