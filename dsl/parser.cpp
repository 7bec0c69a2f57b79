#include "dsl/parser.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "dsl/lexer.hpp"
#include "dsl/builtins.hpp"

namespace permjit {
namespace {

// Binary operators by precedence level, lowest first (C's order, so that a reader's
// habits hold).
const std::vector<std::vector<std::string>> kLevels = {
    {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", "<=", ">", ">="},
    {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};

struct ParseFailed {};

class Parser {
 public:
  Parser(std::vector<Token> toks, Diagnostics& d) : t_(std::move(toks)), diags_(d) {}

  // A value block: statements, then `return <expression>` as the last one.
  ExprPtr value_block(Block& prelude) {
    block(prelude, false, true);
    if (!is_keyword("return"))
      fail(peek().loc, "a value written as statements ends with 'return <expression>'", "add: return <expression>");
    take();
    ExprPtr value = expression();
    skip_separators();
    if (!at_end()) fail(peek().loc, "'return' must be the last statement", "move the statements after it before it");
    return value;
  }

  // Whether the tokens are statements (a value block) rather than one expression.
  bool looks_like_block() const {
    for (const auto& t : t_)
      if (t.kind == Token::Kind::keyword && t.text == "return") return true;
    return is_keyword("var") || is_keyword("for") || is_keyword("if");
  }

  ExprPtr whole_expression() {
    ExprPtr e = expression();
    if (!at_end()) fail(peek().loc, "unexpected " + describe(peek()) + " after the expression");
    return e;
  }

  // Statements up to the end (or a closing brace). At the top level of a value block
  // (`stops_at_return`) it stops before `return`; elsewhere `return` is an error.
  void block(Block& out, bool until_brace, bool stops_at_return = false) {
    while (true) {
      skip_separators();
      if (at_end()) {
        if (until_brace) fail(peek().loc, "missing '}' to close the block");
        return;
      }
      if (until_brace && is_punct("}")) return;
      if (is_keyword("return")) {
        if (stops_at_return) return;
        fail(peek().loc, "'return' gives the value of a whole bound, objective, candidates or filter; it cannot be nested",
             "put `return <expression>` as the last statement, outside every for and if");
      }
      out.push_back(statement());
      if (!at_end() && !is_punct("}") && !is_newline() && !is_punct(";"))
        fail(peek().loc, "unexpected " + describe(peek()) + "; expected the end of the statement");
    }
  }

 private:
  std::vector<Token> t_;
  size_t p_ = 0;
  Diagnostics& diags_;
  int nesting_ = 0;  // the parser's own recursion: (, unary operators, statements
  std::unordered_map<const Expr*, int> height_;  // of each node built, leaves left out

  // One level of the parser's recursion, refused past kMaxNesting at `loc`.
  class Nest {
   public:
    Nest(Parser& p, const Loc& loc) : p_(p) {
      if (++p_.nesting_ > kMaxNesting) p_.too_deep(loc);
    }
    ~Nest() { --p_.nesting_; }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;

   private:
    Parser& p_;
  };

  [[noreturn]] void too_deep(const Loc& loc) {
    fail(loc, "the expression nests more than " + std::to_string(kMaxNesting) + " levels deep here",
         "give parts of it a name with `let` (or `var` in a block)");
  }

  // Records the height of a node from its children's and refuses it past the limit: a
  // chain of binary operators deepens the tree without recursing in the parser.
  ExprPtr built(ExprPtr e) {
    int h = 0;
    for (const auto& a : e->args) {
      auto it = height_.find(a.get());
      h = std::max(h, it == height_.end() ? 1 : it->second);
    }
    if (h + 1 > kMaxNesting) too_deep(e->loc);
    height_[e.get()] = h + 1;
    return e;
  }

  const Token& peek(size_t k = 0) const { return t_[std::min(p_ + k, t_.size() - 1)]; }
  bool at_end() const { return peek().kind == Token::Kind::end; }
  bool is_newline() const { return peek().kind == Token::Kind::newline; }
  bool is_punct(const char* s, size_t k = 0) const {
    return peek(k).kind == Token::Kind::punct && peek(k).text == s;
  }
  bool is_keyword(const char* s, size_t k = 0) const {
    return peek(k).kind == Token::Kind::keyword && peek(k).text == s;
  }
  // A word that is a keyword only where the grammar expects it (`then`, `steps` inside
  // assign()): elsewhere it stays a name a spec may use.
  bool is_word(const char* s) const { return peek().kind == Token::Kind::ident && peek().text == s; }
  Token take() { return t_[p_ < t_.size() - 1 ? p_++ : p_]; }

  static std::string describe(const Token& t) {
    switch (t.kind) {
      case Token::Kind::end: return "end of expression";
      case Token::Kind::newline: return "end of line";
      case Token::Kind::integer: return "number '" + t.text + "'";
      case Token::Kind::ident: return "name '" + t.text + "'";
      default: return "'" + t.text + "'";
    }
  }

  [[noreturn]] void fail(const Loc& loc, std::string msg, std::string hint = {}) {
    diags_.error(loc, std::move(msg), std::move(hint));
    throw ParseFailed{};
  }

  void expect_punct(const char* s, const std::string& what) {
    if (!is_punct(s)) fail(peek().loc, std::string("expected '") + s + "' " + what + ", found " + describe(peek()));
    take();
  }

  std::string expect_ident(const char* what) {
    if (peek().kind != Token::Kind::ident) fail(peek().loc, std::string("expected ") + what + ", found " + describe(peek()));
    return take().text;
  }

  void skip_separators() {
    while (is_newline() || is_punct(";")) take();
  }

  StmtPtr statement() {
    Loc loc = peek().loc;
    Nest nest(*this, loc);
    if (is_keyword("let")) {
      take();
      auto s = std::make_unique<Stmt>(Stmt::Kind::let, loc);
      s->var = expect_ident("a name after 'let'");
      expect_punct("=", "after the name of a 'let'");
      s->value = expression();
      return s;
    }
    if (is_keyword("var")) {
      take();
      auto s = std::make_unique<Stmt>(Stmt::Kind::var, loc);
      s->var = expect_ident("a name after 'var'");
      while (is_punct("[")) {
        take();
        s->dims.push_back(expression());
        expect_punct("]", "to close the dimension");
      }
      expect_punct("=", "after the name of a 'var' (var x = value)");
      s->value = expression();
      return s;
    }
    if (is_keyword("if")) return if_statement();
    if (is_keyword("else")) fail(peek().loc, "'else' without 'if'", "write: if cond { ... } else { ... } on one line: '} else {'");
    if (is_keyword("for")) {
      take();
      auto s = std::make_unique<Stmt>(Stmt::Kind::for_, loc);
      s->var = expect_ident("a loop variable after 'for'");
      if (!is_keyword("in")) fail(peek().loc, "expected 'in' after the loop variable, found " + describe(peek()));
      take();
      s->lo = expression();
      expect_punct("..", "between the bounds of the loop range (for i in lo..hi)");
      s->hi = expression();
      if (is_punct("{")) {
        take();
        block(s->body, true);
        expect_punct("}", "to close the loop body");
      } else {
        expect_punct(":", "or '{' after the loop range");
        s->body.push_back(statement());
      }
      return s;
    }
    auto s = std::make_unique<Stmt>(Stmt::Kind::assign, loc);
    s->target = postfix();
    if (s->target->kind != Expr::Kind::name && s->target->kind != Expr::Kind::index)
      fail(loc, "the left side of an assignment must be a state variable or an element of one");
    expect_punct("=", "in an assignment (target = expression)");
    s->value = expression();
    return s;
  }

  // if cond { stmts } [else { stmts } | else if ...]
  StmtPtr if_statement() {
    auto s = std::make_unique<Stmt>(Stmt::Kind::if_, take().loc);
    s->value = expression();
    expect_punct("{", "after the condition of 'if' (if cond { ... })");
    block(s->body, true);
    expect_punct("}", "to close the body of 'if'");
    if (is_keyword("else")) {
      take();
      if (is_keyword("if")) {
        Nest nest(*this, peek().loc);  // an `else if` chain recurses here
        s->else_body.push_back(if_statement());
      } else {
        expect_punct("{", "after 'else'");
        block(s->else_body, true);
        expect_punct("}", "to close the body of 'else'");
      }
    }
    return s;
  }

  ExprPtr expression() {
    Nest nest(*this, peek().loc);
    if (is_keyword("let")) {
      Loc loc = take().loc;
      auto e = std::make_unique<Expr>(Expr::Kind::let, loc);
      e->var = expect_ident("a name after 'let'");
      expect_punct("=", "after the name of a 'let'");
      e->args.push_back(conditional());
      if (is_punct(",")) {  // let a = x, b = y in body  ==  let a = x in let b = y in body
        Token comma = take();
        t_[--p_] = Token{Token::Kind::keyword, "let", 0, comma.loc};
        e->args.push_back(expression());
        return built(std::move(e));
      }
      if (!is_keyword("in")) fail(peek().loc, "expected 'in' after the value of a 'let', found " + describe(peek()),
                                  "write: let x = value in expression");
      take();
      e->args.push_back(expression());
      return built(std::move(e));
    }
    return conditional();
  }

  ExprPtr conditional() {
    ExprPtr c = binary(0);
    if (!is_punct("?")) return c;
    Loc loc = take().loc;
    auto e = std::make_unique<Expr>(Expr::Kind::cond, loc);
    e->args.push_back(std::move(c));
    e->args.push_back(expression());
    expect_punct(":", "between the two arms of a conditional (c ? a : b)");
    e->args.push_back(expression());
    return built(std::move(e));
  }

  ExprPtr binary(size_t level) {
    if (level == kLevels.size()) return unary();
    ExprPtr l = binary(level + 1);
    while (peek().kind == Token::Kind::punct) {
      const std::string& op = peek().text;
      bool here = false;
      for (const auto& o : kLevels[level]) here |= o == op;
      if (!here) break;
      Loc loc = peek().loc;
      std::string text = take().text;
      auto e = std::make_unique<Expr>(Expr::Kind::binary, loc);
      e->text = text;
      e->args.push_back(std::move(l));
      e->args.push_back(binary(level + 1));
      l = built(std::move(e));
    }
    return l;
  }

  ExprPtr unary() {
    if (is_punct("-") || is_punct("!") || is_punct("~")) {
      Loc loc = peek().loc;
      Nest nest(*this, loc);
      auto e = std::make_unique<Expr>(Expr::Kind::unary, loc);
      e->text = take().text;
      e->args.push_back(unary());
      return built(std::move(e));
    }
    return postfix();
  }

  ExprPtr postfix() {
    ExprPtr base = primary();
    if (!is_punct("[")) return base;
    auto e = std::make_unique<Expr>(Expr::Kind::index, base->loc);
    e->args.push_back(std::move(base));
    while (is_punct("[")) {
      take();
      e->args.push_back(expression());
      expect_punct("]", "to close the index");
    }
    return built(std::move(e));
  }

  ExprPtr primary() {
    const Token& t = peek();
    Loc loc = t.loc;
    if (t.kind == Token::Kind::integer) {
      auto e = std::make_unique<Expr>(Expr::Kind::int_lit, loc);
      e->value = take().value;
      return e;
    }
    if (is_keyword("true") || is_keyword("false")) {
      auto e = std::make_unique<Expr>(Expr::Kind::bool_lit, loc);
      e->value = take().text == "true";
      return e;
    }
    if (is_punct("(")) {
      take();
      ExprPtr e = expression();
      expect_punct(")", "to close the parenthesis");
      return e;
    }
    if (t.kind == Token::Kind::ident) {
      std::string name = take().text;
      if (!is_punct("(")) {
        auto e = std::make_unique<Expr>(Expr::Kind::name, loc);
        e->text = name;
        return e;
      }
      take();
      // Builtins with a syntax of their own; the checker resolves calls and reductions.
      if (builtin_named(name, BuiltinForm::argsort)) return argsort(loc);
      if (const BuiltinInfo* op = builtin_named(name, BuiltinForm::pair_reduce)) return pair_reduce(*op, loc);
      const bool reduction = builtin_named(name, BuiltinForm::reduce) != nullptr;
      if (reduction && peek().kind == Token::Kind::ident && is_keyword("in", 1)) return reduce(name, loc);
      auto e = std::make_unique<Expr>(Expr::Kind::call, loc);
      e->text = name;
      if (!is_punct(")")) {
        e->args.push_back(expression());
        while (is_punct(",")) {
          take();
          e->args.push_back(expression());
        }
      }
      expect_punct(")", "to close the argument list");
      return built(std::move(e));
    }
    fail(loc, "expected an expression, found " + describe(t));
  }

  // argsort(x in lo..hi: key, ...)[position]: a sequence, so one element is taken.
  ExprPtr argsort(const Loc& loc) {
    auto e = std::make_unique<Expr>(Expr::Kind::argsort, loc);
    e->builtin = Builtin::argsort;
    e->var = expect_ident("a variable after 'argsort(' (argsort(x in lo..hi: key)[i])");
    if (!is_keyword("in")) fail(peek().loc, "expected 'in' after the variable of argsort, found " + describe(peek()));
    take();
    ExprPtr lo = expression();
    expect_punct("..", "in the range of argsort (argsort(x in lo..hi: key)[i]); it sorts a range, not a set");
    ExprPtr hi = expression();
    expect_punct(":", "before the keys of argsort");
    std::vector<ExprPtr> keys;
    keys.push_back(expression());
    while (is_punct(",")) {
      take();
      keys.push_back(expression());
    }
    expect_punct(")", "to close argsort");
    if (!is_punct("["))
      fail(peek().loc, "argsort(...) is a sequence; take one element of it with [position]",
           "write argsort(x in lo..hi: key)[i]");
    take();
    ExprPtr pos = expression();
    expect_punct("]", "to close the position");
    e->args.push_back(std::move(lo));
    e->args.push_back(std::move(hi));
    e->args.push_back(std::move(pos));
    for (auto& k : keys) e->args.push_back(std::move(k));
    return built(std::move(e));
  }

  // assign(i in S, j in T: cost), arborescence(i in S, j in T: cost) and minprod(x in
  // S: a, y in T: b): two bound names, each over a set or a range. dualassign(i in S, j
  // in T: cost, k, l: pair cost, rounds) names a second element of each side too.
  ExprPtr pair_reduce(const BuiltinInfo& op, const Loc& loc) {
    const bool assign = op.cost_matrix;
    const std::string shape(op.shape);
    auto e = std::make_unique<Expr>(Expr::Kind::pair_reduce, loc);
    e->text = op.name;
    e->builtin = op.id;
    auto side = [&](std::string& var, bool& range, const char* which) {
      var = expect_ident((std::string("the ") + which + " variable of " + shape).c_str());
      if (!is_keyword("in"))
        fail(peek().loc, "expected 'in' after '" + var + "' in " + shape + ", found " + describe(peek()));
      take();
      e->args.push_back(expression());
      if (is_punct("..")) {
        take();
        range = true;
        e->args.push_back(expression());
      }
    };
    std::vector<ExprPtr> bodies;
    side(e->var, e->over_range, "first");
    if (!assign) {
      expect_punct(":", "before the first value of " + shape);
      bodies.push_back(expression());
    }
    expect_punct(",", "between the two sets of " + shape);
    side(e->var2, e->over_range2, "second");
    expect_punct(":", std::string("before the ") + (assign ? "cost" : "second value") + " of " + shape);
    bodies.push_back(expression());
    if (op.pair_cost) {  // , k, l: pair cost, rounds
      expect_punct(",", "before the pair cost's names of " + shape);
      e->var3 = expect_ident(("the pair cost's first name (of S) in " + shape).c_str());
      expect_punct(",", "between the pair cost's two names in " + shape);
      e->var4 = expect_ident(("the pair cost's second name (of T) in " + shape).c_str());
      expect_punct(":", "before the pair cost of " + shape);
      bodies.push_back(expression());
      expect_punct(",", "before the number of rounds of " + shape);
      bodies.push_back(expression());
    }
    if (assign && is_word("then")) chain(*e);
    expect_punct(")", "to close " + e->text + "()");
    for (auto& b : bodies) e->args.push_back(std::move(b));
    return built(std::move(e));
  }

  // `... : cost then NEXT [steps K] [from E | multiplier X])`: NEXT solved on the
  // reduced costs (additive bounding), with K subgradient steps on side A's multipliers,
  // started from E, or (multiplier X) the value is element X's multiplier. The checker
  // decides which pairs and places are allowed; the parser only reads the names.
  void chain(Expr& e) {
    take();  // then
    const Loc at = peek().loc;
    const std::string next = expect_ident("the name of the reduction after 'then' (assign(i in S, j in T: cost then arborescence))");
    const BuiltinInfo* op = builtin_named(next, BuiltinForm::pair_reduce);
    if (!op || !op->cost_matrix)
      fail(at, "'" + next + "' is not a reduction over a cost matrix; after 'then' comes one of them",
           "write assign(i in S, j in T: cost then arborescence)");
    e.chained = true;
    e.then = op->id;
    if (is_word("steps")) {
      take();
      e.steps_expr = expression();
    }
    if (is_word("from")) {  // side A's multipliers start from a table (of side A's name)
      take();
      e.from_expr = expression();
    } else if (is_word("multiplier")) {  // [derived]: the multiplier of one element
      take();
      e.multiplier_expr = expression();
    }
  }

  // sum(j in free: body), min(i in 0..n: body)
  ExprPtr reduce(const std::string& op, const Loc& loc) {
    auto e = std::make_unique<Expr>(Expr::Kind::reduce, loc);
    e->text = op;
    e->var = take().text;
    take();  // in
    e->args.push_back(expression());
    if (is_punct("..")) {
      take();
      e->over_range = true;
      e->args.push_back(expression());
    }
    expect_punct(":", "before the body of the reduction (" + op + "(x in set: body))");
    e->args.push_back(expression());
    expect_punct(")", "to close the reduction");
    return built(std::move(e));
  }
};

}  // namespace

ExprPtr parse_expression(const ExprSource& src, Diagnostics& diags) {
  std::vector<Token> toks;
  if (!lex(src, false, toks, diags)) return nullptr;
  if (toks.size() == 1) {
    diags.error(toks[0].loc, "empty expression");
    return nullptr;
  }
  try {
    return Parser(std::move(toks), diags).whole_expression();
  } catch (const ParseFailed&) {
    return nullptr;
  }
}

ExprPtr parse_value(const ExprSource& src, Block& prelude, Diagnostics& diags) {
  std::vector<Token> toks;
  if (!lex(src, true, toks, diags)) return nullptr;
  Parser probe(toks, diags);
  if (!probe.looks_like_block()) return parse_expression(src, diags);
  try {
    Parser p(std::move(toks), diags);
    return p.value_block(prelude);
  } catch (const ParseFailed&) {
    return nullptr;
  }
}

bool parse_block(const ExprSource& src, Block& out, Diagnostics& diags) {
  std::vector<Token> toks;
  if (!lex(src, true, toks, diags)) return false;
  try {
    Parser p(std::move(toks), diags);
    p.block(out, false);
    return true;
  } catch (const ParseFailed&) {
    return false;
  }
}

}  // namespace permjit
