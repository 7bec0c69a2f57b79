#include "tools/permjit/parse_error_place.hpp"

#include <cctype>
#include <cstddef>

#include "dsl/diagnostics.hpp"

namespace permjit {

namespace {

bool is_option(const std::string& arg) { return arg.size() > 1 && arg[0] == '-'; }

// The option's name as typed: `--threads` of `--threads=8`.
std::string name_of(const std::string& arg) { return arg.substr(0, arg.find('=')); }

// Whether `word` appears in `text` with no letter, digit, '-' or '_' on either side, so
// that `-p` is not found inside `--pool-max`.
bool mentions(const std::string& text, const std::string& word) {
  auto part_of_name = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; };
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const size_t end = at + word.size();
    if ((at == 0 || !part_of_name(text[at - 1])) && (end == text.size() || !part_of_name(text[end]))) return true;
  }
  return false;
}

}  // namespace

void parse_error_at_place(const CLI::ParseError& e, const std::vector<std::string>& args, const std::string& command) {
  std::string shown;
  std::vector<int> col;  // 1-based column of each argument in `shown`
  for (const std::string& a : args) {
    if (!shown.empty()) shown += ' ';
    col.push_back(static_cast<int>(shown.size()) + 1);
    shown += a;
  }
  const int end = static_cast<int>(shown.size()) + (shown.empty() ? 1 : 2);
  const std::string what = e.what();
  // What is missing (a required argument, a subcommand, an option's value) has no
  // argument of its own: the error points past the last one.
  int at = end;
  const bool missing = dynamic_cast<const CLI::RequiredError*>(&e) || dynamic_cast<const CLI::ArgumentMismatch*>(&e);
  for (size_t i = 0; i < args.size() && !missing; ++i) {
    const std::string& a = args[i];
    if (!mentions(what, is_option(a) ? name_of(a) : a)) continue;
    at = col[i];
    // A value that did not convert: point at the value, in `--x=v` or in `--x v`.
    const bool bad_value = dynamic_cast<const CLI::ConversionError*>(&e) || dynamic_cast<const CLI::ValidationError*>(&e);
    if (bad_value && is_option(a)) {
      if (size_t eq = a.find('='); eq != std::string::npos) at += static_cast<int>(eq) + 1;
      else if (i + 1 < args.size()) at = col[i + 1];
      else at = end;
    }
    break;
  }
  if (missing && dynamic_cast<const CLI::ArgumentMismatch*>(&e))  // an option given without its value
    for (size_t i = 0; i < args.size(); ++i)
      if (is_option(args[i]) && mentions(what, name_of(args[i]))) at = i + 1 < args.size() ? col[i + 1] : end;
  command_line_error(shown, at, what, "see `permjit " + (command.empty() ? std::string("--help") : command + " --help") + "`");
}

}  // namespace permjit
