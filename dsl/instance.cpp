#include "dsl/instance.hpp"

#include "dsl/instance_tokens.hpp"
#include "dsl/static_eval.hpp"

namespace permjit {

namespace {
// The file with every line but `line` (1-based) blanked, so that places stay those of
// the file; null if it has no such line with a number on it.
SourceRef only_line(const SourceRef& file, int line) {
  std::string text = file->text;
  int at = 1;
  bool any = false;
  for (char& c : text) {
    if (c == '\n') {
      ++at;
      continue;
    }
    if (at != line) c = c == '\t' || c == '\r' ? c : ' ';
    else any |= c != ' ' && c != '\t' && c != '\r';
  }
  return any ? make_source(file->path, text) : nullptr;
}
}  // namespace

void publish_data(ProblemSpec& spec, DataItem& item) {
  item.loaded = true;
  Symbol& s = spec.symbols.at(item.name);
  s.dims = item.dims;
  if (item.dims.empty()) s.value = item.values.at(0);
  else s.values = &item.values;
}

bool load_instance(ProblemSpec& spec, Diagnostics& diags) {
  SourceRef file = read_source(spec.instance_path);
  if (!file) {
    // The file was named on the command line: the error is there, the spec's [instance]
    // a note.
    diags.error(Loc{make_source("<command line>", "--instance " + spec.instance_path), 1, 12},
                "cannot read the instance file '" + spec.instance_path + "': " + unreadable_reason(spec.instance_path));
    diags.note(spec.instance.loc, "the spec reads its data from the instance file as declared here");
    return false;
  }
  if (spec.instance_record > 0) {
    file = only_line(file, spec.instance_record);
    if (!file) {
      diags.error(Loc{make_source("<command line>", "--record " + std::to_string(spec.instance_record)), 1, 10},
                  "the instance file '" + spec.instance_path + "' has no line " + std::to_string(spec.instance_record));
      return false;
    }
  }
  switch (spec.instance.kind) {
    case InstanceFormat::Kind::tsplib: return read_tsplib(spec, file, diags);
    case InstanceFormat::Kind::layout: return read_layout(spec, file, diags);
    case InstanceFormat::Kind::none: break;
  }
  return false;
}

namespace {
DataItem& item_named(ProblemSpec& spec, const std::string& name) {
  for (auto& d : spec.data)
    if (d.name == name) return d;
  PJ_INTERNAL_ASSERT(false, "no data item " + name);
}

std::string shape(const DataItem& item) {
  std::string s = "int";
  for (auto d : item.dims) s += "[" + std::to_string(d) + "]";
  return s;
}
}  // namespace

bool read_layout(ProblemSpec& spec, const SourceRef& file, Diagnostics& diags) {
  std::vector<InstanceToken> toks = split_tokens(file);
  size_t next = 0;
  for (const auto& [name, where] : spec.instance.read_order) {
    DataItem& item = item_named(spec, name);
    int64_t count = 1;
    for (size_t k = 0; k < item.dim_exprs.size(); ++k) {
      auto v = eval_static(*item.dim_exprs[k], &diags);
      if (!v) {
        diags.error(item.dim_exprs[k]->loc, "dimension of '" + name + "' is not known when it is read",
                    "read the items it depends on before it in [instance] read");
        return false;
      }
      if (*v < 0 || *v > (1 << 24)) {
        diags.error(item.dim_exprs[k]->loc, "dimension of '" + name + "' is " + std::to_string(*v) + " (from the instance)");
        return false;
      }
      item.dims[k] = *v;
      count *= *v;
      if (count > (1 << 24)) {  // checked per dimension, so the product cannot overflow
        diags.error(item.dim_exprs[k]->loc, "'" + name + "' would hold more than 16777216 numbers (from the instance)");
        return false;
      }
    }
    if (toks.size() - next < static_cast<size_t>(count)) {
      diags.error(end_of(file), "the file ends too early: '" + name + "' (" + shape(item) + ") needs " +
                                    std::to_string(count) + " number(s), " + std::to_string(toks.size() - next) + " left");
      return false;
    }
    item.values.clear();
    bool ok = true;
    for (int64_t i = 0; i < count; ++i) {
      auto v = to_int(toks[next++], diags, "'" + name + "'");
      ok &= v.has_value();
      item.values.push_back(v.value_or(0));
    }
    if (!ok) return false;
    publish_data(spec, item);
  }
  if (next < toks.size()) {
    const auto& order = spec.instance.read_order;
    diags.error(toks[next].loc, std::to_string(toks.size() - next) + " number(s) left over " +
                                    (order.empty() ? std::string("([instance] read lists no item)")
                                                   : "after the last item '" + order.back().first + "'"),
                "the file has more numbers than [instance] read describes");
    return false;
  }
  return true;
}

}  // namespace permjit
