#include "dsl/diagnostics.hpp"

#include <sstream>

namespace permjit {

void Diagnostics::error(const Loc& loc, std::string message, std::string hint) {
  list_.push_back({Diagnostic::Kind::error, loc, std::move(message), std::move(hint)});
  ++errors_;
}

void Diagnostics::note(const Loc& loc, std::string message) {
  list_.push_back({Diagnostic::Kind::note, loc, std::move(message), {}});
}

std::string render(const Diagnostic& d) {
  std::ostringstream out;
  const char* kind = d.kind == Diagnostic::Kind::error ? "error" : "note";
  if (d.loc.file) {
    out << d.loc.file->path;
    if (d.loc.line > 0) out << ':' << d.loc.line << ':' << d.loc.col;
    out << ": ";
  } else {
    out << "permjit: ";
  }
  out << kind << ": " << d.message << '\n';
  if (d.loc.known()) {
    std::string_view text = d.loc.file->line(d.loc.line);
    out << "  " << text << '\n' << "  ";
    // Keep tabs so that the caret lines up under tab-indented text.
    for (int i = 1; i < d.loc.col && static_cast<size_t>(i - 1) < text.size(); ++i)
      out << (text[i - 1] == '\t' ? '\t' : ' ');
    out << "^\n";
  }
  if (!d.hint.empty()) out << "  hint: " << d.hint << '\n';
  return out.str();
}

std::string Diagnostics::render() const {
  std::string s;
  for (const auto& d : list_) s += permjit::render(d);
  return s;
}

void internal_error(const char* file, int line, const std::string& what) {
  std::ostringstream out;
  out << "internal error at " << file << ':' << line << ": " << what
      << " (this is a bug in permjit, not in your spec)";
  throw InternalError(out.str());
}

void command_line_error(const std::string& shown, int col, const std::string& message, const std::string& hint) {
  Diagnostics d;
  d.error(Loc{make_source("<command line>", shown), 1, col}, message, hint);
  throw UserErrors(std::move(d));
}

}  // namespace permjit
