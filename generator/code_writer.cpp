#include "generator/code_writer.hpp"

#include <algorithm>

namespace permjit {

std::string quote_path(const std::string& path) {
  std::string s = "\"";
  for (char c : path) {
    if (c == '"' || c == '\\') s += '\\';
    s += c;
  }
  return s + "\"";
}

bool CodeWriter::is_open(uint64_t block) const {
  return block == 0 || std::find(blocks_.begin(), blocks_.end(), block) != blocks_.end();
}

void CodeWriter::raw(const std::string& text) {
  text_ += text;
  for (char c : text) lines_ += c == '\n';
}

void CodeWriter::line(const std::string& text) {
  // Every line of user code maps to its spec line, even when one spec line expands
  // into several lines of C++.
  if (in_user_ && mapped_next_ != user_.line) {
    raw("#line " + std::to_string(user_.line) + " " + quote_path(user_.file->path) + "\n");
    mapped_next_ = user_.line;
  }
  raw(std::string(depth_, ' ') + text + "\n");
  if (in_user_) ++mapped_next_;
  ++statements_;
  static const std::string read = "pj::run_time_value(";
  for (size_t at = text.find(read); at != std::string::npos; at = text.find(read, at + read.size())) ++reads_;
}

void CodeWriter::open_loop(int64_t trip) {
  line("#pragma unroll");
  loops_.push_back(Loop{text_.rfind("#pragma unroll"), trip, statements_, 0, reads_});
}

void CodeWriter::close_loop() {
  Loop l = loops_.back();
  loops_.pop_back();
  const int64_t body = statements_ - l.statements_at + l.inner_extra;
  const bool unroll = l.must_unroll || l.trip <= 1 || l.trip * body <= unroll_budget_;
  if (!unroll) text_.insert(l.pragma_at + std::string("#pragma unroll").size(), " 1");
  // What this loop adds to its parent's size beyond the text already counted.
  const int64_t extra = (unroll ? l.trip * body : body) - (statements_ - l.statements_at);
  (loops_.empty() ? outer_extra_ : loops_.back().inner_extra) += extra;
  const int64_t body_reads = reads_ - l.reads_at + l.inner_extra_reads;
  const int64_t extra_reads = (unroll ? l.trip * body_reads : body_reads) - (reads_ - l.reads_at);
  (loops_.empty() ? outer_extra_reads_ : loops_.back().inner_extra_reads) += extra_reads;
}

void CodeWriter::require_unroll() {
  if (in_called_) return;
  for (Loop& l : loops_) l.must_unroll = true;
}

void CodeWriter::open_called_function() { in_called_ = true; }

void CodeWriter::close_called_function() { in_called_ = false; }

void CodeWriter::open_function() {
  function_at_ = text_.size();
  function_statements_ = statements_;
  function_extra_ = outer_extra_;
  call_required_ = false;
}

void CodeWriter::close_function() {
  const int64_t size = statements_ - function_statements_ + outer_extra_ - function_extra_;
  if (size < heavy_from_ && !call_required_) return;
  const size_t at = text_.find("PJ_HD ", function_at_);
  if (at != std::string::npos) text_.replace(at, 5, "PJ_HEAVY");
}

void CodeWriter::user_place(const Loc& loc) {
  if (!loc.known()) return;
  if (!in_user_) mapped_next_ = -1;
  in_user_ = true;
  user_ = loc;
}

void CodeWriter::generated_place() {
  if (!in_user_) return;
  // After this directive the next line is line lines_+2 of the generated text.
  raw("#line " + std::to_string(lines_ + 2) + " " + quote_path(name_) + "\n");
  in_user_ = false;
}

}  // namespace permjit
