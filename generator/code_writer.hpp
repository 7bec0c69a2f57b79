// A text buffer for generated C++ that knows its own line numbers, so that it can
// switch `#line` between the spec (user code) and the generated file (our code).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "dsl/source.hpp"
#include "generator/index_site.hpp"

namespace permjit {

class CodeWriter {
 public:
  explicit CodeWriter(std::string generated_name) : name_(std::move(generated_name)) {}

  void line(const std::string& text);         // one line at the current indentation
  void raw(const std::string& text);          // text as is (may hold several lines)
  // indent() opens a block (what it indents), dedent() closes it.
  void indent() {
    depth_ += 2;
    blocks_.push_back(++blocks_opened_);
  }
  void dedent() {
    depth_ -= 2;
    blocks_.pop_back();
  }
  // The innermost open block (0 outside every block); what is declared in a block is
  // visible while it is open.
  uint64_t block() const { return blocks_.empty() ? 0 : blocks_.back(); }
  bool is_open(uint64_t block) const;
  // The next lines come from this place of the spec.
  void user_place(const Loc& loc);
  // The next lines are ours again.
  void generated_place();
  // A loop of constant trip count: open_loop writes its `#pragma unroll` line, and
  // close_loop, after the loop's closing brace, settles it from the body's size
  // (docs/generated-code.md, "Unrolling"): fully unrolled while trip x size stays within
  // the budget, else left rolled (`#pragma unroll 1`). The size of a body counts its
  // statements, inner loops at their unrolled size.
  void open_loop(int64_t trip);
  void close_loop();
  // The body of every open loop indexes an array kept in registers (state, a local
  // array) by a value known only when the loop is unrolled: rolled, that array would go
  // to local memory (3-10x slower searches measured), so these loops unroll whatever
  // their size. Not inside a function that is always called (open_called_function):
  // there the budget decides alone.
  void require_unroll();
  void set_unroll_budget(int64_t statements) { unroll_budget_ = statements; }
  // Reads of instance data at run time (pj::run_time_value) in the text so far, each
  // loop counted at its unrolled size: how many loads the unrolled code makes where
  // compiled-in values would be immediates (generator/choose_data.cpp).
  int64_t unrolled_run_time_reads() const { return reads_ + outer_extra_reads_; }
  int64_t unroll_budget() const { return unroll_budget_; }
  // A function whose body, unrolled, passes `heavy_from` statements is compiled once
  // and called (PJ_HEAVY, __noinline__ on the device) rather than inlined into every
  // kernel that uses it. open_function before its signature line, close_function after
  // its closing brace.
  void open_function();
  void close_function();
  // The open function solves a two-set reduction (an assignment, an arborescence): loops
  // whose trip counts are data, O(k^3) work against which a call costs nothing. It is
  // called, not inlined (PJ_HEAVY). Inlined into the ivm explorer that keeps its rows in
  // local memory, QAP's Gilmore-Lawler bound gave a wrong optimum on the H100 (NVRTC
  // 13.0: right with -G, wrong with ptxas at -O0, so NVVM's optimised code; right as a
  // call); docs/reliability.md, "A bound that is called".
  void require_call() { call_required_ = solves_matching_ = true; }
  // Whether any function written so far solved an assignment or arborescence
  // (require_call): the node code is heavy (emit_node_weight).
  bool solves_matching() const { return solves_matching_; }
  // A function written PJ_HEAVY by its emitter (refine(): called once, under the branch
  // on the cheap bound). Its node arrives by reference, through memory, and its loops
  // may roll even where they index its local arrays: rolled, flowshop's refined LB2 (190
  // machine pairs) searched as fast on the H100 in total (two ends, lb=3: ta021 and
  // ta023 faster, ta029 and ta030 0.04-0.08 s slower) and NVRTC compiled the ivm unit in
  // 4.2-4.5 s instead of 13-15 s (docs/generated-code.md, "Unrolling").
  void open_called_function();
  void close_called_function();
  void set_heavy_from(int64_t statements) { heavy_from_ = statements; }
  const std::string& text() const { return text_; }
  // Numbers an index site of this source (generator/index_site.hpp), in the order the
  // text names them.
  int index_site(IndexSite site) {
    index_sites_.push_back(std::move(site));
    return static_cast<int>(index_sites_.size()) - 1;
  }
  const std::vector<IndexSite>& index_sites() const { return index_sites_; }
  const std::string& generated_name() const { return name_; }

 private:
  std::string name_;
  std::string text_;
  std::vector<IndexSite> index_sites_;
  int lines_ = 0;  // lines written so far
  int depth_ = 0;
  std::vector<uint64_t> blocks_;  // the open blocks, outermost first
  uint64_t blocks_opened_ = 0;
  bool in_user_ = false;
  Loc user_;             // the spec place the next lines stand for
  int mapped_next_ = -1; // the line number the compiler gives the next line
  struct Loop {
    size_t pragma_at;        // where its `#pragma unroll` stands in text_
    int64_t trip;
    int64_t statements_at;   // statements_ when it opened
    int64_t inner_extra = 0; // what its inner loops add by unrolling
    int64_t reads_at;        // reads_ when it opened
    int64_t inner_extra_reads = 0;  // the reads its inner loops add by unrolling
    bool must_unroll = false;
  };
  std::vector<Loop> loops_;
  int64_t statements_ = 0;   // lines of code written (not directives)
  int64_t outer_extra_ = 0;  // what loops outside any loop add by unrolling
  int64_t reads_ = 0, outer_extra_reads_ = 0;  // the same for run-time data reads
  int64_t unroll_budget_ = kDefaultUnrollBudget;
  size_t function_at_ = 0;   // the open function's signature line in text_
  bool in_called_ = false;   // between open_called_function and close_called_function
  bool call_required_ = false;  // require_call() since open_function
  bool solves_matching_ = false;  // require_call() ever
  int64_t function_statements_ = 0, function_extra_ = 0;
  int64_t heavy_from_ = kDefaultHeavyFrom;

 public:
  // Statements a fully unrolled loop nest may expand to (PERMJIT_UNROLL_BUDGET overrides):
  // with instance data compiled in, and with data read at run time (generator/generate.cpp).
  static constexpr int64_t kDefaultUnrollBudget = 8192;
  static constexpr int64_t kRunTimeDataUnrollBudget = 256;
  // Unrolled statements from which a function is compiled once (PERMJIT_HEAVY_FROM
  // overrides). Off by default: a called bound() made ivm on ta022 2.9x slower (H100).
  static constexpr int64_t kDefaultHeavyFrom = INT64_MAX;
};

std::string quote_path(const std::string& path);

}  // namespace permjit
