#include "dsl/lexer.hpp"

#include <array>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <limits>

namespace permjit {
namespace {

constexpr std::array<const char*, 9> kKeywords = {"in", "let", "for", "true", "false", "var", "if", "else", "return"};
// Longest first, so that `<<` is not read as two `<`.
constexpr std::array<const char*, 9> kTwoChar = {"<<", ">>", "<=", ">=", "==", "!=", "&&", "||", ".."};
constexpr std::string_view kOneChar = "()[]{},:;?+-*/%<>&|^~!=";

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The character that starts at s[i] and is not part of the language: its UTF-8 bytes
// are taken together (TOML text is UTF-8), so that one message names one character,
// as U+XXXX with the character itself when it is printable. Sets `len` to its bytes.
std::string describe_stray(std::string_view s, size_t i, size_t& len) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  len = b0 < 0x80 ? 1 : (b0 >> 5) == 0x6 ? 2 : (b0 >> 4) == 0xE ? 3 : (b0 >> 3) == 0x1E ? 4 : 0;
  uint32_t cp = len == 1 ? b0 : len == 2 ? b0 & 0x1F : len == 3 ? b0 & 0x0F : b0 & 0x07;
  for (size_t k = 1; k < len; ++k) {
    const auto b = i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0;
    if ((b & 0xC0) != 0x80) len = 0;
    if (len == 0) break;
    cp = (cp << 6) | (b & 0x3F);
  }
  char code[16];
  if (len == 0) {  // not UTF-8: name the byte
    len = 1;
    std::snprintf(code, sizeof code, "0x%02X", b0);
    return "byte " + std::string(code) + " (not UTF-8)";
  }
  const bool printable = cp >= 0x20 && cp != 0x7F && !(cp >= 0x80 && cp < 0xA0);
  if (printable && cp < 0x80) return "character '" + std::string(1, s[i]) + "'";
  std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(cp));
  return "character " + std::string(code) + (printable ? " '" + std::string(s.substr(i, len)) + "'" : "");
}

}  // namespace

bool lex(const ExprSource& src, bool keep_newlines, std::vector<Token>& out, Diagnostics& diags) {
  std::string_view s = src.text;
  const auto& at = *src.places;
  int depth = 0;  // inside () or [] newlines are whitespace
  bool ok = true;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (c == '#') {
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (c == '\n') {
      if (keep_newlines && depth == 0 && !out.empty() && out.back().kind != Token::Kind::newline)
        out.push_back({Token::Kind::newline, "\\n", 0, at[i]});
      ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    Token t;
    t.loc = at[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t b = i;
      int base = 10;
      if (c == '0' && i + 1 < s.size() && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        base = 16;
        i += 2;
      }
      unsigned __int128 v = 0;
      bool overflow = false;
      size_t digits = 0;
      while (i < s.size() && (std::isxdigit(static_cast<unsigned char>(s[i])) || s[i] == '_')) {
        char d = s[i];
        if (d != '_') {
          int dv = std::isdigit(static_cast<unsigned char>(d)) ? d - '0' : std::tolower(d) - 'a' + 10;
          if (dv >= base) break;
          v = v * base + dv;
          if (v > static_cast<unsigned __int128>(std::numeric_limits<int64_t>::max())) overflow = true;
          ++digits;
        }
        ++i;
      }
      if (digits == 0 || (i < s.size() && is_ident_char(s[i]))) {
        while (i < s.size() && is_ident_char(s[i])) ++i;
        diags.error(t.loc, "malformed number '" + std::string(s.substr(b, i - b)) + "'");
        ok = false;
        continue;
      }
      if (overflow) {
        diags.error(t.loc, "integer literal " + std::string(s.substr(b, i - b)) + " does not fit in 64 bits");
        ok = false;
      }
      t.kind = Token::Kind::integer;
      t.text = std::string(s.substr(b, i - b));
      t.value = static_cast<int64_t>(v);
      out.push_back(std::move(t));
      continue;
    }
    if (is_ident_start(c)) {
      size_t b = i;
      while (i < s.size() && is_ident_char(s[i])) ++i;
      t.text = std::string(s.substr(b, i - b));
      t.kind = Token::Kind::ident;
      for (const char* k : kKeywords)
        if (t.text == k) t.kind = Token::Kind::keyword;
      out.push_back(std::move(t));
      continue;
    }
    bool matched = false;
    for (const char* two : kTwoChar) {
      if (s.substr(i, 2) == two) {
        t.kind = Token::Kind::punct;
        t.text = two;
        i += 2;
        matched = true;
        break;
      }
    }
    if (!matched && kOneChar.find(c) != std::string_view::npos) {
      t.kind = Token::Kind::punct;
      t.text = std::string(1, c);
      ++i;
      matched = true;
    }
    if (!matched) {
      size_t len = 1;
      diags.error(t.loc, "unexpected " + describe_stray(s, i, len) + " in expression");
      ok = false;
      i += len;
      continue;
    }
    if (t.text == "(" || t.text == "[") ++depth;
    if ((t.text == ")" || t.text == "]") && depth > 0) --depth;
    out.push_back(std::move(t));
  }
  Token end;
  end.kind = Token::Kind::end;
  end.loc = at[s.size()];
  out.push_back(std::move(end));
  return ok;
}

}  // namespace permjit
