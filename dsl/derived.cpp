#include "dsl/derived.hpp"

#include <map>
#include <set>

#include "dsl/instance.hpp"
#include "dsl/static_eval.hpp"

namespace permjit {

namespace {

// The derived symbols an expression reads.
void collect_reads(const Expr& e, const std::set<const Symbol*>& derived, std::set<const Symbol*>& out) {
  if (e.sym && derived.count(e.sym)) out.insert(e.sym);
  for (const auto& a : e.args) collect_reads(*a, derived, out);
  for (const Expr* x : chain_parts(e)) collect_reads(*x, derived, out);
}

class Computer {
 public:
  Computer(ProblemSpec& s, Diagnostics& d) : spec_(s), d_(d) {}

  bool run() {
    std::set<const Symbol*> derived;
    for (auto& item : spec_.derived) {
      const Symbol* sym = &spec_.symbols.at(item.name);
      derived.insert(sym);
      by_symbol_[sym] = &item;
    }
    for (auto& item : spec_.derived) {
      std::set<const Symbol*> reads;
      for (const auto& dim : item.dim_exprs) collect_reads(*dim, derived, reads);
      collect_reads(*item.value, derived, reads);
      reads_[&item] = reads;
    }
    for (auto& item : spec_.derived)
      if (!visit(item)) return false;
    return true;
  }

 private:
  ProblemSpec& spec_;
  Diagnostics& d_;
  std::map<const Symbol*, DataItem*> by_symbol_;
  std::map<const DataItem*, std::set<const Symbol*>> reads_;
  std::set<const DataItem*> done_;
  std::vector<const DataItem*> path_;  // being computed, for the cycle message
  std::set<const DataItem*> on_path_;  // the same, to look up

  // Computes what `item` reads, then `item` itself: a depth-first walk with its own
  // stack, since a chain of derived items may be as long as the spec is.
  bool visit(DataItem& root) {
    if (done_.count(&root)) return true;
    struct Frame {
      DataItem* item;
      std::set<const Symbol*>::const_iterator next;
    };
    std::vector<Frame> stack;
    auto enter = [&](DataItem& item) {
      for (size_t i = 0; on_path_.count(&item) && i < path_.size(); ++i) {
        if (path_[i] != &item) continue;
        std::string cycle;
        for (size_t k = i; k < path_.size(); ++k) cycle += path_[k]->name + " -> ";
        d_.error(item.loc, "derived '" + item.name + "' depends on itself: " + cycle + item.name,
                 "a derived item may read only parameters, data and other derived items that do not read it");
        return false;
      }
      path_.push_back(&item);
      on_path_.insert(&item);
      stack.push_back({&item, reads_[&item].cbegin()});
      return true;
    };
    if (!enter(root)) return false;
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (f.next != reads_[f.item].cend()) {
        DataItem& dep = *by_symbol_.at(*f.next++);
        if (!done_.count(&dep) && !enter(dep)) return false;
        continue;
      }
      DataItem& item = *f.item;
      stack.pop_back();
      path_.pop_back();
      on_path_.erase(&item);
      if (!compute(item)) return false;
      done_.insert(&item);
    }
    return true;
  }

  bool compute(DataItem& item) {
    int64_t count = 1;
    for (size_t k = 0; k < item.dim_exprs.size(); ++k) {
      auto v = eval_static(*item.dim_exprs[k], &d_);
      if (!v) {
        if (!d_.has_errors())
          d_.error(item.dim_exprs[k]->loc, "a dimension of derived '" + item.name + "' cannot be computed before the search");
        return false;
      }
      if (*v < 1 || *v > (1 << 24)) {
        d_.error(item.dim_exprs[k]->loc, "dimension " + std::to_string(*v) + " of derived '" + item.name +
                                             "' is outside 1..16777216");
        return false;
      }
      item.dims[k] = *v;
      count *= *v;
      if (count > (1 << 24)) {
        d_.error(item.loc, "derived '" + item.name + "' has more than 16777216 elements");
        return false;
      }
    }
    item.values.assign(static_cast<size_t>(count), 0);
    std::vector<int64_t> index(item.dims.size(), 0);
    std::map<const Symbol*, int64_t> locals;
    for (int64_t flat = 0; flat < count; ++flat) {
      for (size_t k = 0; k < index.size(); ++k) locals[item.index_syms[k]] = index[k];
      auto v = eval_static(*item.value, locals, &d_);
      if (!v) {
        if (!d_.has_errors())
          d_.error(item.value->loc, "the value of derived '" + item.name + element(index) +
                                        "' cannot be computed before the search");
        return false;
      }
      if (*v < INT32_MIN || *v > INT32_MAX) {
        d_.error(item.value->loc, "derived '" + item.name + element(index) + "' = " + std::to_string(*v) +
                                      " does not fit in a 32-bit int");
        return false;
      }
      item.values[static_cast<size_t>(flat)] = *v;
      for (size_t k = index.size(); k-- > 0;) {  // the next index, row-major
        if (++index[k] < item.dims[k]) break;
        index[k] = 0;
      }
    }
    publish_data(spec_, item);
    return true;
  }

  static std::string element(const std::vector<int64_t>& index) {
    std::string s;
    for (auto i : index) s += "[" + std::to_string(i) + "]";
    return s;
  }
};

}  // namespace

bool compute_derived(ProblemSpec& spec, Diagnostics& diags) { return Computer(spec, diags).run(); }

}  // namespace permjit
