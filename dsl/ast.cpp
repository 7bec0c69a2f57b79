#include "dsl/ast.hpp"

#include <sstream>

#include "dsl/builtins.hpp"

namespace permjit {

const char* type_name(Type t) {
  switch (t) {
    case Type::int_: return "int";
    case Type::bool_: return "bool";
    case Type::bits: return "bits";
    case Type::error: break;
  }
  return "<error>";
}

std::string to_string(const Expr& e) {
  auto a = [&](size_t i) { return to_string(*e.args[i]); };
  switch (e.kind) {
    case Expr::Kind::int_lit: return std::to_string(e.value);
    case Expr::Kind::bool_lit: return e.value ? "true" : "false";
    case Expr::Kind::name: return e.text;
    case Expr::Kind::unary: return e.text + a(0);
    case Expr::Kind::binary: return "(" + a(0) + " " + e.text + " " + a(1) + ")";
    case Expr::Kind::cond: return "(" + a(0) + " ? " + a(1) + " : " + a(2) + ")";
    case Expr::Kind::call: {
      std::string s = e.text + "(";
      for (size_t i = 0; i < e.args.size(); ++i) s += (i ? ", " : "") + a(i);
      return s + ")";
    }
    case Expr::Kind::index: {
      std::string s = a(0);
      for (size_t i = 1; i < e.args.size(); ++i) s += "[" + a(i) + "]";
      return s;
    }
    case Expr::Kind::reduce:
      if (e.over_range) return e.text + "(" + e.var + " in " + a(0) + ".." + a(1) + ": " + a(2) + ")";
      return e.text + "(" + e.var + " in " + a(0) + ": " + a(1) + ")";
    case Expr::Kind::let: return "(let " + e.var + " = " + a(0) + " in " + a(1) + ")";
    case Expr::Kind::argsort: {
      std::string s = "argsort(" + e.var + " in " + a(0) + ".." + a(1) + ": ";
      for (size_t i = 3; i < e.args.size(); ++i) s += (i > 3 ? ", " : "") + a(i);
      return s + ")[" + a(2) + "]";
    }
    case Expr::Kind::pair_reduce: {
      const size_t b = side_b(e), body = first_body(e);
      auto side = [&](size_t at, bool range) { return range ? a(at) + ".." + a(at + 1) : a(at); };
      std::string sa = e.var + " in " + side(0, e.over_range), sb = e.var2 + " in " + side(b, e.over_range2);
      const BuiltinInfo& op = builtin_info(e.builtin);
      if (op.pair_cost)
        return e.text + "(" + sa + ", " + sb + ": " + a(body) + ", " + e.var3 + ", " + e.var4 + ": " + a(body + 1) +
               ", " + a(body + 2) + ")";
      if (op.cost_matrix) {
        std::string chain;
        if (e.chained) chain = " then " + std::string(builtin_info(e.then).name);
        if (e.chained && e.steps_expr) chain += " steps " + to_string(*e.steps_expr);
        if (e.chained && e.from_expr) chain += " from " + to_string(*e.from_expr);
        if (e.chained && e.multiplier_expr) chain += " multiplier " + to_string(*e.multiplier_expr);
        return e.text + "(" + sa + ", " + sb + ": " + a(body) + chain + ")";
      }
      return e.text + "(" + sa + ": " + a(body) + ", " + sb + ": " + a(body + 1) + ")";
    }
  }
  return "?";
}

std::string to_string(const Block& b, int indent) {
  std::ostringstream out;
  std::string pad(indent, ' ');
  for (const auto& s : b) {
    switch (s->kind) {
      case Stmt::Kind::assign: out << pad << to_string(*s->target) << " = " << to_string(*s->value) << '\n'; break;
      case Stmt::Kind::let: out << pad << "let " << s->var << " = " << to_string(*s->value) << '\n'; break;
      case Stmt::Kind::for_:
        out << pad << "for " << s->var << " in " << to_string(*s->lo) << ".." << to_string(*s->hi) << " {\n"
            << to_string(s->body, indent + 2) << pad << "}\n";
        break;
      case Stmt::Kind::var:
        out << pad << "var " << s->var;
        for (const auto& d : s->dims) out << "[" << to_string(*d) << "]";
        out << " = " << to_string(*s->value) << '\n';
        break;
      case Stmt::Kind::if_:
        out << pad << "if " << to_string(*s->value) << " {\n" << to_string(s->body, indent + 2) << pad << "}";
        if (!s->else_body.empty()) out << " else {\n" << to_string(s->else_body, indent + 2) << pad << "}";
        out << '\n';
        break;
    }
  }
  return out.str();
}

}  // namespace permjit
