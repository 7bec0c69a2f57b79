// Under test: dsl/toml_string_map.cpp (each decoded byte of a TOML string -> its line/col).
#include <catch2/catch.hpp>

#include "dsl/toml_string_map.hpp"

using namespace permjit;

namespace {

struct Mapped {
  SourceRef file;
  std::vector<Loc> map;
  // `start` is the place of the opening quote.
  Mapped(const std::string& text, int line, int col, const std::string& decoded)
      : file(make_source("<toml>", text)), map(map_toml_string(Loc{file, line, col}, decoded)) {
    REQUIRE(map.size() == decoded.size() + 1);
  }
  std::pair<int, int> at(size_t i) const { return {map.at(i).line, map.at(i).col}; }
};

using P = std::pair<int, int>;

}  // namespace

TEST_CASE("plain basic and literal strings map byte by byte", "[toml_string_map]") {
  Mapped basic("k = \"ab c\"\n", 1, 5, "ab c");
  CHECK(basic.at(0) == P{1, 6});
  CHECK(basic.at(3) == P{1, 9});
  CHECK(basic.at(4) == P{1, 10});  // the end: the closing quote
  CHECK(basic.map[0].file == basic.file);

  Mapped literal("x = 1\nk = 'a\\b'\n", 2, 5, "a\\b");  // no escapes in literal strings
  CHECK(literal.at(1) == P{2, 7});
  CHECK(literal.at(2) == P{2, 8});
}

TEST_CASE("escapes: each decoded byte maps to its backslash", "[toml_string_map]") {
  // k = "a\"b\nc\u00e9d"
  //      6 7 9 10 12 13    19
  Mapped m("k = \"a\\\"b\\nc\\u00e9d\"\n", 1, 5, "a\"b\nc\xC3\xA9" "d");
  CHECK(m.at(0) == P{1, 6});   // a
  CHECK(m.at(1) == P{1, 7});   // \"
  CHECK(m.at(2) == P{1, 9});   // b
  CHECK(m.at(3) == P{1, 10});  // \n
  CHECK(m.at(4) == P{1, 12});  // c
  CHECK(m.at(5) == P{1, 13});  // first byte of é
  CHECK(m.at(6) == P{1, 13});  // second byte of é
  CHECK(m.at(7) == P{1, 19});  // d
  CHECK(m.at(8) == P{1, 20});  // closing quote
}

TEST_CASE("\\U escapes of 8 digits and a backslash escape", "[toml_string_map]") {
  // k = "\U0001F600\\x"  -> 4 bytes of the emoji, a backslash, x
  Mapped m("k = \"\\U0001F600\\\\x\"", 1, 5, "\xF0\x9F\x98\x80\\x");
  CHECK(m.at(0) == P{1, 6});
  CHECK(m.at(3) == P{1, 6});
  CHECK(m.at(4) == P{1, 16});  // the backslash escape
  CHECK(m.at(5) == P{1, 18});  // x
}

TEST_CASE("multi-line strings: the first newline is trimmed, lines are counted", "[toml_string_map]") {
  SECTION("basic") {
    Mapped m("k = \"\"\"\nab\n  cd\"\"\"\n", 1, 5, "ab\n  cd");
    CHECK(m.at(0) == P{2, 1});  // a
    CHECK(m.at(1) == P{2, 2});  // b
    CHECK(m.at(2) == P{2, 3});  // the newline itself
    CHECK(m.at(5) == P{3, 3});  // c
    CHECK(m.at(6) == P{3, 4});  // d
    CHECK(m.at(7) == P{3, 5});  // closing quotes
  }
  SECTION("literal") {
    Mapped m("a = 1\nk = '''\nx\n\n   y\n'''\n", 2, 5, "x\n\n   y\n");
    CHECK(m.at(0) == P{3, 1});  // x
    CHECK(m.at(6) == P{5, 4});  // y
    CHECK(m.at(7) == P{5, 5});  // the last newline
    CHECK(m.at(8) == P{6, 1});  // closing quotes
  }
  SECTION("content on the opening line") {
    Mapped m("k = '''ab\ncd'''", 1, 5, "ab\ncd");
    CHECK(m.at(0) == P{1, 8});
    CHECK(m.at(3) == P{2, 1});
  }
  SECTION("line-ending backslash trims the newline and the indentation") {
    Mapped m("k = \"\"\"\na \\\n     b\"\"\"", 1, 5, "a b");
    CHECK(m.at(0) == P{2, 1});
    CHECK(m.at(1) == P{2, 2});
    CHECK(m.at(2) == P{3, 6});  // b
  }
  SECTION("quotes just before the closing delimiter belong to the string") {
    Mapped m("k = \"\"\"a\"\"\"\"", 1, 5, "a\"");
    CHECK(m.at(0) == P{1, 8});
    CHECK(m.at(1) == P{1, 9});
    CHECK(m.at(2) == P{1, 10});
  }
  SECTION("CRLF line ends decode to LF") {
    Mapped m("k = '''\r\nab\r\ncd'''\r\n", 1, 5, "ab\ncd");
    CHECK(m.at(0) == P{2, 1});
    CHECK(m.at(3) == P{3, 1});  // c
  }
}

TEST_CASE("a decoded string that does not match falls back to the start", "[toml_string_map]") {
  Mapped wrong("k = \"abc\"", 1, 5, "xyz");
  for (size_t i = 0; i < wrong.map.size(); ++i) CHECK(wrong.at(i) == P{1, 5});
  Mapped not_a_quote("k = abc", 1, 5, "abc");
  CHECK(not_a_quote.at(2) == P{1, 5});
  // An unknown place (no file) also maps every byte to it.
  std::vector<Loc> none = map_toml_string(Loc{}, "ab");
  REQUIRE(none.size() == 3);
  CHECK(none[1].line == 0);
}
