// TSPLIB reader for explicit edge weights (TSP and ATSP): every EDGE_WEIGHT_FORMAT of
// TSPLIB's EXPLICIT type. Fills a dimension scalar and an n x n weight matrix.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>

#include "dsl/instance.hpp"
#include "dsl/instance_tokens.hpp"
#include "dsl/static_eval.hpp"

namespace permjit {
namespace {

constexpr int kMaxTsplibDimension = 4096;

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

// Which (i, j) pairs a format lists, in order. Symmetric formats fill (j, i) too.
std::vector<std::pair<int, int>> weight_order(const std::string& fmt, int n, bool& symmetric, bool& known) {
  std::vector<std::pair<int, int>> o;
  known = true;
  symmetric = fmt != "FULL_MATRIX";
  auto rows = [&](auto keep) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (keep(i, j)) o.push_back({i, j});
  };
  auto cols = [&](auto keep) {
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        if (keep(i, j)) o.push_back({i, j});
  };
  if (fmt == "FULL_MATRIX") rows([](int, int) { return true; });
  else if (fmt == "UPPER_ROW") rows([](int i, int j) { return i < j; });
  else if (fmt == "LOWER_ROW") rows([](int i, int j) { return i > j; });
  else if (fmt == "UPPER_DIAG_ROW") rows([](int i, int j) { return i <= j; });
  else if (fmt == "LOWER_DIAG_ROW") rows([](int i, int j) { return i >= j; });
  else if (fmt == "UPPER_COL") cols([](int i, int j) { return i < j; });
  else if (fmt == "LOWER_COL") cols([](int i, int j) { return i > j; });
  else if (fmt == "UPPER_DIAG_COL") cols([](int i, int j) { return i <= j; });
  else if (fmt == "LOWER_DIAG_COL") cols([](int i, int j) { return i >= j; });
  else known = false;
  return o;
}

}  // namespace

bool read_tsplib(ProblemSpec& spec, const SourceRef& file, Diagnostics& diags) {
  std::map<std::string, std::pair<std::string, Loc>> header;
  size_t section_at = std::string::npos;
  for (int l = 1; l <= file->line_count(); ++l) {
    std::string_view line = file->line(l);
    std::string t = trim(line);
    if (t.empty()) continue;
    int col = static_cast<int>(line.find_first_not_of(" \t")) + 1;
    if (t == "EDGE_WEIGHT_SECTION" || t.rfind("EDGE_WEIGHT_SECTION", 0) == 0) {
      section_at = file->line_starts[l - 1] + line.find("EDGE_WEIGHT_SECTION") + 19;
      break;
    }
    size_t colon = t.find(':');
    if (colon == std::string::npos) {
      diags.error(Loc{file, l, col}, "expected 'KEY : VALUE' in the TSPLIB header, found '" + t + "'");
      return false;
    }
    header[trim(std::string_view(t).substr(0, colon))] = {trim(std::string_view(t).substr(colon + 1)), Loc{file, l, col}};
  }
  auto need = [&](const char* key) -> const std::pair<std::string, Loc>* {
    auto it = header.find(key);
    if (it == header.end()) {
      diags.error(Loc{file, 1, 1}, std::string("the TSPLIB header has no ") + key);
      return nullptr;
    }
    return &it->second;
  };
  const auto* type = need("TYPE");
  const auto* dim = need("DIMENSION");
  const auto* ewt = need("EDGE_WEIGHT_TYPE");
  if (!type || !dim || !ewt) return false;
  if (type->first != "ATSP" && type->first != "TSP") {
    diags.error(type->second, "TSPLIB TYPE '" + type->first + "' is not supported (ATSP or TSP)");
    return false;
  }
  if (ewt->first != "EXPLICIT") {
    diags.error(ewt->second, "EDGE_WEIGHT_TYPE '" + ewt->first + "' is not supported; only EXPLICIT weights are read");
    return false;
  }
  std::string fmt = header.count("EDGE_WEIGHT_FORMAT") ? header["EDGE_WEIGHT_FORMAT"].first : "FULL_MATRIX";
  int n = 0;
  auto [end, ec] = std::from_chars(dim->first.data(), dim->first.data() + dim->first.size(), n);
  if (ec != std::errc() || end != dim->first.data() + dim->first.size()) n = 0;
  if (n < 1) {
    diags.error(dim->second, "DIMENSION must be a positive integer, found '" + dim->first + "'");
    return false;
  }
  // The weight matrix is a data table: at most 16777216 entries, so n <= 4096.
  if (n > kMaxTsplibDimension) {
    diags.error(dim->second, "DIMENSION " + dim->first + " is more than " + std::to_string(kMaxTsplibDimension) +
                                 ", the largest weight matrix permjit reads (16777216 entries)");
    return false;
  }
  bool symmetric = false, known = false;
  auto order = weight_order(fmt, n, symmetric, known);
  if (!known) {
    diags.error(header["EDGE_WEIGHT_FORMAT"].second, "unknown EDGE_WEIGHT_FORMAT '" + fmt + "'");
    return false;
  }
  if (section_at == std::string::npos) {
    diags.error(end_of(file), "the file has no EDGE_WEIGHT_SECTION");
    return false;
  }
  std::vector<InstanceToken> toks = split_tokens(file, section_at);
  // The section ends at EOF or at the next keyword.
  auto stop = std::find_if(toks.begin(), toks.end(), [](const InstanceToken& t) {
    return !t.text.empty() && std::isalpha(static_cast<unsigned char>(t.text[0]));
  });
  size_t available = static_cast<size_t>(stop - toks.begin());
  if (available < order.size()) {
    diags.error(available < toks.size() ? toks[available].loc : end_of(file),
                "EDGE_WEIGHT_SECTION (" + fmt + ", DIMENSION " + std::to_string(n) + ") needs " +
                    std::to_string(order.size()) + " numbers, found " + std::to_string(available));
    return false;
  }
  if (available > order.size()) {
    diags.error(toks[order.size()].loc, std::to_string(available - order.size()) +
                                            " number(s) more than EDGE_WEIGHT_SECTION (" + fmt + ", DIMENSION " +
                                            std::to_string(n) + ") holds");
    return false;
  }
  std::vector<int64_t> w(static_cast<size_t>(n) * n, 0);
  bool ok = true;
  for (size_t k = 0; k < order.size(); ++k) {
    auto v = to_int(toks[k], diags, "an edge weight");
    if (!v) {
      ok = false;
      continue;
    }
    auto [i, j] = order[k];
    w[static_cast<size_t>(i) * n + j] = *v;
    if (symmetric) w[static_cast<size_t>(j) * n + i] = *v;
  }
  if (!ok) return false;
  for (auto& item : spec.data) {
    if (item.name == spec.instance.dimension_item) {
      item.values = {n};
      publish_data(spec, item);
    }
  }
  for (auto& item : spec.data) {
    if (item.name != spec.instance.weights_item) continue;
    // The declared dimensions must agree with DIMENSION.
    item.dims.assign(2, n);
    for (size_t k = 0; k < 2; ++k) {
      auto v = eval_static(*item.dim_exprs[k], &diags);
      if (v && *v != n) {
        diags.error(item.dim_exprs[k]->loc, "'" + item.name + "' is declared with dimension " + std::to_string(*v) +
                                                " but the instance has DIMENSION " + std::to_string(n));
        ok = false;
      }
    }
    item.values = std::move(w);
    publish_data(spec, item);
  }
  return ok;
}

}  // namespace permjit
