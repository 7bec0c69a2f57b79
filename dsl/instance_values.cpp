#include "dsl/instance_values.hpp"

#include <cstdint>
#include <map>

#include "dsl/checker.hpp"  // did_you_mean
#include "dsl/instance.hpp"
#include "dsl/static_eval.hpp"

namespace permjit {

namespace {

std::string shape_text(const std::vector<int64_t>& dims) {
  std::string s = "int";
  for (auto d : dims) s += "[" + std::to_string(d) + "]";
  return s;
}

// The given values as one line of text, so that an error can show which one it means.
struct Listing {
  SourceRef source;
  std::vector<int> col;  // 1-based column of each value's name
};

Listing list_values(const std::vector<InstanceValue>& given) {
  std::string text;
  Listing l;
  for (const auto& v : given) {
    if (!text.empty()) text += ' ';
    l.col.push_back(static_cast<int>(text.size()) + 1);
    text += v.name + "=" + shape_text(v.dims);
  }
  l.source = make_source("<instance values>", text);
  return l;
}

}  // namespace

bool load_instance_values(ProblemSpec& spec, const std::vector<InstanceValue>& given, Diagnostics& diags) {
  const Listing listing = list_values(given);
  auto at = [&](size_t k) { return Loc{listing.source, 1, listing.col[k]}; };
  std::vector<std::string> names;
  for (const auto& item : spec.data) names.push_back(item.name);

  std::map<std::string, size_t> index;  // data item -> its value in `given`
  bool ok = true;
  for (size_t k = 0; k < given.size(); ++k) {
    const std::string& name = given[k].name;
    bool is_data = false;
    for (const auto& item : spec.data) is_data |= item.name == name;
    if (!is_data) {
      const bool derived = spec.find_data(name) != nullptr;
      diags.error(at(k), "'" + name + "' is not a data item of the spec",
                  derived ? "'" + name + "' is [derived]: computed from the data, not given"
                          : did_you_mean(name, names));
      ok = false;
    } else if (!index.emplace(name, k).second) {
      diags.error(at(k), "'" + name + "' is given twice");
      ok = false;
    }
  }
  for (const auto& item : spec.data)
    if (!index.count(item.name)) {
      diags.error(item.loc, "data item '" + item.name + "' has no value in the instance values",
                  "give every data item: " + [&] {
                    std::string all;
                    for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
                    return all;
                  }());
      ok = false;
    }
  if (!ok) return false;

  // Scalars first: the arrays' dimensions may name them.
  for (int pass = 0; pass < 2; ++pass)
    for (auto& item : spec.data) {
      const bool scalar = item.dim_exprs.empty();
      if (scalar != (pass == 0)) continue;
      const size_t k = index.at(item.name);
      const InstanceValue& v = given[k];
      if (v.dims.size() != item.dim_exprs.size()) {
        diags.error(at(k), "'" + item.name + "' has " + std::to_string(v.dims.size()) + " dimension(s); the spec declares " +
                               std::to_string(item.dim_exprs.size()),
                    scalar ? "give an int" : "give an array of that many dimensions");
        ok = false;
        continue;
      }
      bool known = true, same = true;
      for (size_t d = 0; d < item.dim_exprs.size() && known; ++d) {
        auto want = eval_static(*item.dim_exprs[d], &diags);
        if (!want) {
          diags.error(item.dim_exprs[d]->loc, "dimension of '" + item.name + "' is not known from the parameters and scalars");
          known = false;
          break;
        }
        item.dims[d] = *want;
        same &= v.dims[d] == *want;
      }
      if (!known || !same) {
        if (known)
          diags.error(at(k), "'" + item.name + "' is " + shape_text(v.dims) + "; the spec declares it " +
                                 shape_text(item.dims) + " for these parameters and scalars");
        ok = false;
        continue;
      }
      int64_t count = 1;
      for (auto d : v.dims) count *= d;
      if (static_cast<int64_t>(v.values.size()) != count) {
        diags.error(at(k), "'" + item.name + "' holds " + std::to_string(v.values.size()) + " number(s) for shape " +
                               shape_text(v.dims));
        ok = false;
        continue;
      }
      for (size_t i = 0; i < v.values.size(); ++i)
        if (v.values[i] < INT32_MIN || v.values[i] > INT32_MAX) {
          diags.error(at(k), "value " + std::to_string(v.values[i]) + " of '" + item.name + "' (element " +
                                 std::to_string(i) + " in row-major order) does not fit in a 32-bit int");
          ok = false;
          break;
        }
      if (!ok) continue;
      item.values = v.values;
      publish_data(spec, item);
    }
  return ok;
}

}  // namespace permjit
