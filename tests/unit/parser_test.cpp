// Under test: dsl/lexer.cpp + dsl/parser.cpp (expression shapes, blocks, parse error places).
#include <catch2/catch.hpp>

#include "dsl/parser.hpp"
#include "unit_helpers.hpp"

using namespace permjit;

namespace {

// A string of the expression language with a place for each byte (line, col counted in
// the string itself, as if it were a file of its own).
struct Src {
  SourceRef file;
  std::string text;
  std::vector<Loc> places;
  explicit Src(std::string t) : file(make_source("<expr>", t)), text(std::move(t)) {
    int line = 1, col = 1;
    for (char c : text) {
      places.push_back(Loc{file, line, col});
      if (c == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    places.push_back(Loc{file, line, col});
  }
  ExprSource src() const { return ExprSource{text, &places}; }
};

std::string shape(const std::string& text) {
  Src s(text);
  Diagnostics d;
  ExprPtr e = parse_expression(s.src(), d);
  INFO(d.render());
  REQUIRE(e);
  CHECK_FALSE(d.has_errors());
  return to_string(*e);
}

Diagnostics expr_errors(const std::string& text) {
  Src s(text);
  Diagnostics d;
  CHECK_FALSE(parse_expression(s.src(), d));
  REQUIRE(d.error_count() >= 1);
  return d;
}

std::string block_shape(const std::string& text, size_t expect_statements) {
  Src s(text);
  Diagnostics d;
  Block b;
  INFO(text);
  bool ok = parse_block(s.src(), b, d);
  INFO(d.render());
  REQUIRE(ok);
  CHECK(b.size() == expect_statements);
  return to_string(b);
}

Diagnostics block_errors(const std::string& text) {
  Src s(text);
  Diagnostics d;
  Block b;
  CHECK_FALSE(parse_block(s.src(), b, d));
  REQUIRE(d.error_count() >= 1);
  return d;
}

}  // namespace

TEST_CASE("binary operators follow C precedence", "[parser]") {
  CHECK(shape("a + b * c") == "(a + (b * c))");
  CHECK(shape("a * b + c") == "((a * b) + c)");
  CHECK(shape("x & y == z") == "(x & (y == z))");
  CHECK(shape("a | b ^ c & d") == "(a | (b ^ (c & d)))");
  CHECK(shape("a || b && c") == "(a || (b && c))");
  CHECK(shape("a < b == c < d") == "((a < b) == (c < d))");
  CHECK(shape("1 << 2 + 3") == "(1 << (2 + 3))");
  CHECK(shape("a & b | c") == "((a & b) | c)");
  CHECK(shape("a % b * c") == "((a % b) * c)");
}

TEST_CASE("binary operators are left associative; parentheses regroup", "[parser]") {
  CHECK(shape("a - b - c") == "((a - b) - c)");
  CHECK(shape("a / b / c") == "((a / b) / c)");
  CHECK(shape("a - (b - c)") == "(a - (b - c))");
  CHECK(shape("(a + b) * c") == "((a + b) * c)");
}

TEST_CASE("unary operators bind tighter than binary ones", "[parser]") {
  CHECK(shape("-a * b") == "(-a * b)");
  CHECK(shape("!x && y") == "(!x && y)");
  CHECK(shape("~(ld | rd)") == "~(ld | rd)");
  CHECK(shape("- -a") == "--a");
}

TEST_CASE("conditional: lowest precedence, nests to the right", "[parser]") {
  CHECK(shape("a + 1 > 2 ? x : y") == "(((a + 1) > 2) ? x : y)");
  CHECK(shape("c ? a : b ? x : y") == "(c ? a : (b ? x : y))");
  CHECK(shape("d == 0 ? 0 : cost + dist[last][v]") == "((d == 0) ? 0 : (cost + dist[last][v]))");
}

TEST_CASE("let: single binding and comma-separated bindings", "[parser]") {
  CHECK(shape("let x = 1 in x + 1") == "(let x = 1 in (x + 1))");
  CHECK(shape("let a = 1, b = 2 in a + b") == "(let a = 1 in (let b = 2 in (a + b)))");
  CHECK(shape("1 + (let t = 2 in t)") == "(1 + (let t = 2 in t))");
  Src s("let a = 1, b = 2 in a + b");
  Diagnostics d;
  ExprPtr e = parse_expression(s.src(), d);
  REQUIRE(e);
  REQUIRE(e->kind == Expr::Kind::let);
  CHECK(e->var == "a");
  REQUIRE(e->args[1]->kind == Expr::Kind::let);
  CHECK(e->args[1]->var == "b");
}

TEST_CASE("reductions over a set and over a range; calls stay calls", "[parser]") {
  CHECK(shape("sum(j in free: p[j])") == "sum(j in free: p[j])");
  CHECK(shape("min(i in 0..n: x)") == "min(i in 0..n: x)");
  CHECK(shape("count(i in d..n - 1: test(free, i))") == "count(i in d..(n - 1): test(free, i))");
  CHECK(shape("min(a, b)") == "min(a, b)");

  Src s("min(i in 0..n: x)");
  Diagnostics d;
  ExprPtr e = parse_expression(s.src(), d);
  REQUIRE(e);
  CHECK(e->kind == Expr::Kind::reduce);
  CHECK(e->text == "min");
  CHECK(e->var == "i");
  CHECK(e->over_range);
  CHECK(e->args.size() == 3);

  Src c("max(a, b, 3)");
  ExprPtr call = parse_expression(c.src(), d);
  REQUIRE(call);
  CHECK(call->kind == Expr::Kind::call);
  CHECK(call->args.size() == 3);
}

TEST_CASE("index chains keep every index on one node", "[parser]") {
  CHECK(shape("b[loc[i]][v]") == "b[loc[i]][v]");
  Src s("dist[last][v + 1]");
  Diagnostics d;
  ExprPtr e = parse_expression(s.src(), d);
  REQUIRE(e);
  REQUIRE(e->kind == Expr::Kind::index);
  REQUIRE(e->args.size() == 3);
  CHECK(e->args[0]->text == "dist");
  CHECK(to_string(*e->args[2]) == "(v + 1)");
}

TEST_CASE("literals: hex, digit separators, booleans", "[parser][lexer]") {
  CHECK(shape("0xff + 1_000") == "(255 + 1000)");
  CHECK(shape("true || false") == "(true || false)");
}

TEST_CASE("nodes carry the place of their operator or name", "[parser]") {
  Src s("a + b * c");
  Diagnostics d;
  ExprPtr e = parse_expression(s.src(), d);
  REQUIRE(e);
  CHECK(e->loc.col == 3);           // '+'
  CHECK(e->args[1]->loc.col == 7);  // '*'
  CHECK(e->args[1]->args[1]->loc.col == 9);  // 'c'
}

TEST_CASE("expression errors name their place", "[parser][errors]") {
  SECTION("missing operand at the end") {
    auto d = expr_errors("a +");
    CHECK(d.all()[0].loc.col == 4);
    CHECK_THAT(d.all()[0].message, Catch::Contains("expected an expression, found end of expression"));
  }
  SECTION("two names in a row") {
    auto d = expr_errors("a b");
    CHECK(d.all()[0].loc.col == 3);
    CHECK_THAT(d.all()[0].message, Catch::Contains("unexpected name 'b' after the expression"));
  }
  SECTION("unclosed parenthesis") {
    auto d = expr_errors("(a + 1");
    CHECK(d.all()[0].loc.col == 7);
    CHECK_THAT(d.all()[0].message, Catch::Contains("expected ')'"));
  }
  SECTION("unknown character") {
    auto d = expr_errors("a $ b");
    CHECK(d.all()[0].loc.col == 3);
    CHECK_THAT(d.all()[0].message, Catch::Contains("unexpected character '$'"));
  }
  SECTION("malformed number") {
    auto d = expr_errors("1 + 12abc");
    CHECK(d.all()[0].loc.col == 5);
    CHECK_THAT(d.all()[0].message, Catch::Contains("malformed number '12abc'"));
  }
  SECTION("let without in") {
    auto d = expr_errors("let x = 1 x");
    CHECK(d.all()[0].loc.col == 11);
    CHECK_THAT(d.all()[0].message, Catch::Contains("expected 'in'"));
  }
  SECTION("empty") {
    auto d = expr_errors("   ");
    CHECK(d.all()[0].loc.col == 4);
    CHECK_THAT(d.all()[0].message, Catch::Contains("empty expression"));
  }
  SECTION("an error on the second line of the string") {
    auto d = expr_errors("a +\n  * b");
    CHECK(d.all()[0].loc.line == 2);
    CHECK(d.all()[0].loc.col == 3);
  }
}

TEST_CASE("blocks: newlines and ';' separate statements", "[parser][block]") {
  CHECK(block_shape("x = 1\ny = x + 2", 2) == "x = 1\ny = (x + 2)\n");
  CHECK(block_shape("x = 1; y = 2", 2) == "x = 1\ny = 2\n");
  CHECK(block_shape("\n\nx = 1;;\n\n y = 2;\n", 2) == "x = 1\ny = 2\n");
  CHECK(block_shape("a[d] = v\nlet t = a[0]\nc = t", 3) == "a[d] = v\nlet t = a[0]\nc = t\n");
  // Newlines inside parentheses are whitespace; comments run to the end of the line.
  CHECK(block_shape("x = (1 +\n 2)  # sum\ny = 3", 2) == "x = (1 + 2)\ny = 3\n");
}

TEST_CASE("blocks: for with ':' and with braces", "[parser][block]") {
  CHECK(block_shape("for i in 0..n: a[i] = 0", 1) == "for i in 0..n {\n  a[i] = 0\n}\n");
  // After ':' the body is one statement; ';' ends it.
  CHECK(block_shape("for i in 0..n: a[i] = 0; y = 1", 2) == "for i in 0..n {\n  a[i] = 0\n}\ny = 1\n");
  CHECK(block_shape("for i in 0..n {\n  a[i] = i\n  b[i] = 0\n}\nc = 1", 2) ==
        "for i in 0..n {\n  a[i] = i\n  b[i] = 0\n}\nc = 1\n");
  CHECK(block_shape("for i in 0..n { for j in i..n: m[i][j] = 0 }", 1) ==
        "for i in 0..n {\n  for j in i..n {\n    m[i][j] = 0\n  }\n}\n");
}

TEST_CASE("block errors name their place", "[parser][block][errors]") {
  SECTION("two statements on one line") {
    auto d = block_errors("x = 1 y = 2");
    CHECK(d.all()[0].loc.col == 7);
    CHECK_THAT(d.all()[0].message, Catch::Contains("expected the end of the statement"));
  }
  SECTION("unclosed loop body") {
    auto d = block_errors("for i in 0..n {\n  x = 1\n");
    CHECK_THAT(d.all()[0].message, Catch::Contains("missing '}'"));
    CHECK(d.all()[0].loc.line == 3);
  }
  SECTION("a literal on the left") {
    auto d = block_errors("x = 1\n1 = x");
    CHECK(d.all()[0].loc.line == 2);
    CHECK(d.all()[0].loc.col == 1);
    CHECK_THAT(d.all()[0].message, Catch::Contains("left side of an assignment"));
  }
  SECTION("for without in") {
    auto d = block_errors("for i 0..n: x = 1");
    CHECK(d.all()[0].loc.col == 7);
    CHECK_THAT(d.all()[0].message, Catch::Contains("expected 'in' after the loop variable"));
  }
  SECTION("for range without ..") {
    auto d = block_errors("for i in n: x = 1");
    CHECK(d.all()[0].loc.col == 11);
    CHECK_THAT(d.all()[0].message, Catch::Contains("expected '..'"));
  }
}

TEST_CASE("a character outside the language is one error naming it, not one per byte", "[parser][errors]") {
  SECTION("two bytes") {
    auto d = expr_errors("a \xC3\xA9 b");  // é
    REQUIRE(d.error_count() == 1);
    CHECK(d.all()[0].loc.col == 3);
    CHECK_THAT(d.all()[0].message, Catch::Contains("unexpected character U+00E9 '\xC3\xA9'"));
  }
  SECTION("three bytes, twice: one error each, at its first byte") {
    auto d = expr_errors("a \xE2\x82\xAC\xE2\x82\xAC b");  // €€
    REQUIRE(d.error_count() == 2);
    CHECK(d.all()[0].loc.col == 3);
    CHECK(d.all()[1].loc.col == 6);
    CHECK_THAT(d.all()[1].message, Catch::Contains("U+20AC"));
  }
  SECTION("four bytes") {
    auto d = expr_errors("\xF0\x9F\x98\x80");  // an emoji
    REQUIRE(d.error_count() == 1);
    CHECK_THAT(d.all()[0].message, Catch::Contains("U+1F600"));
  }
  SECTION("a control character is named by its code alone") {
    auto d = expr_errors("a \x01 b");
    REQUIRE(d.error_count() == 1);
    CHECK_THAT(d.all()[0].message, Catch::Contains("unexpected character U+0001 in expression"));
  }
  SECTION("a byte that is not UTF-8") {
    auto d = expr_errors("a \xFF b");
    REQUIRE(d.error_count() == 1);
    CHECK_THAT(d.all()[0].message, Catch::Contains("byte 0xFF (not UTF-8)"));
  }
}

TEST_CASE("a non-ASCII character in a spec is located in the .toml", "[parser][errors]") {
  auto d = permjit::unit::spec_errors(
      "[problem]\nname = \"t\"\ngoal = \"count\"\nsize = 4\n[branch]\nfilter = \"v \xC3\xA9 1\"\n");
  REQUIRE(d.error_count() == 1);
  permjit::unit::check_at(d.all()[0], 6, 13, "unexpected character U+00E9");
}
