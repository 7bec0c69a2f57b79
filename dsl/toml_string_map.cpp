#include "dsl/toml_string_map.hpp"

#include <string>

namespace permjit {
namespace {

struct Cursor {
  const SourceFile& f;
  size_t pos;
  int line, col;
  char peek(size_t k = 0) const { return pos + k < f.text.size() ? f.text[pos + k] : '\0'; }
  bool at_end() const { return pos >= f.text.size(); }
  void advance() {
    if (f.text[pos] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
    ++pos;
  }
  Loc here(const SourceRef& ref) const { return Loc{ref, line, col}; }
};

// Appends the UTF-8 encoding of code point cp.
void append_utf8(std::string& s, unsigned cp) {
  if (cp < 0x80) {
    s += static_cast<char>(cp);
  } else if (cp < 0x800) {
    s += static_cast<char>(0xC0 | (cp >> 6));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    s += static_cast<char>(0xE0 | (cp >> 12));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    s += static_cast<char>(0xF0 | (cp >> 18));
    s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

bool decode(const Loc& start, std::string& out, std::vector<Loc>& map) {
  const SourceFile& f = *start.file;
  if (start.line < 1 || start.line > f.line_count()) return false;
  Cursor c{f, f.line_starts[start.line - 1] + start.col - 1, start.line, start.col};
  char q = c.peek();
  if (q != '"' && q != '\'') return false;
  bool multi = c.peek(1) == q && c.peek(2) == q;
  bool literal = q == '\'';
  for (int i = 0; i < (multi ? 3 : 1); ++i) c.advance();
  if (multi) {  // a newline right after the opening delimiter is trimmed
    if (c.peek() == '\r' && c.peek(1) == '\n') c.advance();
    if (c.peek() == '\n') c.advance();
  }
  auto closes = [&] {
    if (!multi) return c.peek() == q;
    // In multi-line strings up to two quotes may stand before the closing three.
    return c.peek() == q && c.peek(1) == q && c.peek(2) == q && c.peek(3) != q;
  };
  while (!c.at_end() && !closes()) {
    Loc here = c.here(start.file);
    char ch = c.peek();
    if (ch == '\r' && c.peek(1) == '\n') {  // CRLF decodes to LF
      c.advance();
      continue;
    }
    if (literal || ch != '\\') {
      out += ch;
      map.push_back(here);
      c.advance();
      continue;
    }
    c.advance();  // the backslash
    char e = c.peek();
    if (multi && (e == ' ' || e == '\t' || e == '\n' || e == '\r')) {
      // Line-ending backslash: trims the newline and all whitespace that follows.
      while (!c.at_end() && (c.peek() == ' ' || c.peek() == '\t' || c.peek() == '\n' || c.peek() == '\r'))
        c.advance();
      continue;
    }
    c.advance();
    switch (e) {
      case 'b': out += '\b'; map.push_back(here); break;
      case 't': out += '\t'; map.push_back(here); break;
      case 'n': out += '\n'; map.push_back(here); break;
      case 'f': out += '\f'; map.push_back(here); break;
      case 'r': out += '\r'; map.push_back(here); break;
      case 'e': out += '\x1b'; map.push_back(here); break;
      case '"': out += '"'; map.push_back(here); break;
      case '\\': out += '\\'; map.push_back(here); break;
      case 'u':
      case 'U': {
        int digits = e == 'u' ? 4 : 8;
        unsigned cp = 0;
        for (int i = 0; i < digits; ++i) {
          char h = c.peek();
          if (!std::isxdigit(static_cast<unsigned char>(h))) return false;
          cp = cp * 16 + static_cast<unsigned>(std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : (std::tolower(h) - 'a' + 10));
          c.advance();
        }
        size_t before = out.size();
        append_utf8(out, cp);
        for (size_t i = before; i < out.size(); ++i) map.push_back(here);
        break;
      }
      default:
        return false;
    }
  }
  map.push_back(c.here(start.file));
  return true;
}

}  // namespace

std::vector<Loc> map_toml_string(const Loc& start, std::string_view decoded) {
  std::vector<Loc> map;
  if (start.known()) {
    std::string out;
    if (decode(start, out, map) && out == decoded) return map;
  }
  return std::vector<Loc>(decoded.size() + 1, start);
}

}  // namespace permjit
